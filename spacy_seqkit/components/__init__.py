"""spaCy pipeline components (factories)."""
