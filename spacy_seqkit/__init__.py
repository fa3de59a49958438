"""spaCy plugin: sequence encoders, seq2seq rewriting and word vectors.

Everything is registered through entry points (see setup.cfg), so nothing here
needs importing for a spaCy config to resolve our names.
"""

from .about import __version__

__all__ = ["__version__"]
