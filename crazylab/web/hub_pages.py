"""The tables' pages on a JupyterHub: only for a user the hub logged in.

A visit without the hub's login goes to the hub's login page and back through the service's
``oauth_callback`` (JupyterHub's OAuth: :class:`jupyterhub.services.auth.HubOAuthenticated`,
whose cookie, kept for the service's prefix, then names the user of the page's own requests
too). A user the hub knows but who may not reach this service is refused (403). Imported only
when ``crazylab tables --hub`` runs: it needs ``jupyterhub``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated

from .hub import HubIdentity
from .pages import FileHandler


class HubPage(HubOAuthenticated, FileHandler):  # type: ignore[misc]
    """A tables page (lobby, table, watch, tournament) behind the hub's login."""

    def initialize(self, name: str | None = None, cache: str = "no-store",
                   identity: HubIdentity | None = None) -> None:
        super().initialize(name, cache)
        assert identity is not None, "a hub page needs the hub's identity"
        self.hub_auth = identity.auth

    async def prepare(self) -> None:
        # ask the hub here, without blocking; get_current_user then reads its answer (a user
        # who may not reach this service is refused 403 by the redirect, as the mixin does)
        await self.hub_auth.get_user(self, sync=False)
        if not self.current_user:
            self.redirect(self.get_login_url())  # the hub's login, then back here


class HubLogin(HubOAuthCallbackHandler):  # type: ignore[misc]
    """The end of the hub's login: the hub's code for a token, kept in the login cookie."""

    def initialize(self, identity: HubIdentity) -> None:
        self.hub_auth = identity.auth  # the same OAuth state the page's redirect began


def login_routes(identity: HubIdentity) -> list[tuple[str, type, dict[str, Any]]]:
    """The OAuth callback's route, where the hub sends a browser back after its login."""
    path = urlsplit(identity.auth.oauth_redirect_uri).path
    return [(path, HubLogin, {"identity": identity})]
