"""The browser fixture (``new_page``) of tests/browser, for this app's browser test."""

from tests.browser.conftest import new_page  # noqa: F401
