"""Loaders of pretrained weights for spacy-curated-transformers (CamemBERT), and a
tiny random CamemBERT of the same layout for tests and dry runs."""
