"""Fixtures of the editor-server suites: a client factory whose servers are
stopped after each test."""
import pytest

from lspclient import Client


@pytest.fixture
def start(tmp_path):
    """start(**kwargs) -> a Client running `pgconflint server` in tmp_path."""
    clients = []

    def make(**kwargs):
        c = Client(kwargs.pop("root", tmp_path), **kwargs)
        clients.append(c)
        return c
    yield make
    for c in clients:
        c.close()
