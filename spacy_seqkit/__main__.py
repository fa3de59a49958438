import gc

from .cli import app

if __name__ == "__main__":
    try:
        app()
    finally:
        # The command is done (its outputs written and closed): what it made stays until the
        # process ends, unwalked by the cyclic collector. Python's finalization otherwise collects
        # over and over as it tears the modules down, through everything a pipeline loaded and
        # cached: 0.8 s at the end of a `resolve` of 20,000 orders, 0.1 s with `gc.freeze()`.
        gc.freeze()
