"""Answering travel orders: the Travel Order Resolver's CSV formats and the limits on one
order (`format.py`), a batch of orders answered by a pipeline (`answer.py`), the backends that
answer partitions (`backends.py`: this process, a process pool; `dask_backend.py`: a Dask
cluster), the one streaming path over them (`stream.py`), and the HTTP service with its page
(`service.py`, `page.html`). Imports `travel.places` and `travel.pipeline`."""
