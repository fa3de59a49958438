"""What runs inside `nlp(text)`, as small pipes, each reading the doc once and leaving what it
found on it: `seqkit_place_marker` (before `tok2vec`), then after the recognizer `seqkit_places`
(every place mention, `mentions/`), the qualifiers (`qualifiers/`: ruled out, context,
alternative, other means, called off, language) and `seqkit_trip` (the roles, `roles/`), with the
words they read as data (`lexicon/`). `reading.py` adds them to a pipeline. Imports
`travel.places` only."""
