"""Training data only: the request phrasings (`phrasings/`), typing noise (`noise.py`), the
generator (`generate.py`), JSONL records (`records.py`) and their conversion to spaCy's binary
format (`docbin.py`). Imports `travel.places` and `travel.pipeline`; nothing that runs at
inference imports it."""
