"""REST API v1 of the tournaments app (routes wired by ``scoring/api_urls.py``)."""
