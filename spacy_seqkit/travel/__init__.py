"""The French travel application of the library: gazetteer, trip component and `Trip`
value, templates, noise, corpus generation, Travel Order Resolver I/O and evaluation.

The library never imports this package; this package imports the library.
"""
from .gazetteer import Gazetteer, normalise
from .trip import Trip

__all__ = ["Gazetteer", "Trip", "normalise"]
