"""What runs inside `nlp(text)`: `seqkit_place_marker` (`place_marker.py`), `seqkit_trip`
(`trip_component.py`) and the `Trip` value it sets on `doc._.trip` (`trip.py`), the language
guard (`language.py`), the Doc extensions (`extensions.py`) and the tokenizer callback
`spacy-seqkit.arrow_infixes.v1` (`tokenizer.py`). Imports `travel.places` only."""
