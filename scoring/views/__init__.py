"""Pages of the ``scoring`` app: public standings pages (``public``) and exports (``exports``)."""
