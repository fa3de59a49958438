"""What runs inside `nlp(text)`: `seqkit_place_marker` (`place_marker.py`), `seqkit_trip`
(`trip_component.py`) and the `Trip` value it sets on `doc._.trip` (`trip.py`), with the rules
it reads a request by: other means of transport (`modes.py`), places ruled out
(`ruled_out.py`), station names cut by the recognizer (`station_names.py`), ends read from
their cues (`cued_ends.py`), namesakes (`homonyms.py`), names as written (`written.py`); the
language guard (`language.py`), the Doc extensions (`extensions.py`) and the tokenizer callback
`spacy-seqkit.arrow_infixes.v1` (`tokenizer.py`). Imports `travel.places` only."""
