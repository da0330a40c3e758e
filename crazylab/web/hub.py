"""Who a request comes from, as JupyterHub says: the class service's identities on a hub.

On a JupyterHub the class service runs as a hub service (``crazylab tables --hub``): it alone
holds the database, and a learner's kernel or page never names itself. A request carries the
caller's hub token (``Authorization: token …``: a kernel's ``$JUPYTERHUB_API_TOKEN``, which the
hub gave that learner's server); the service asks the hub whose it is
(:meth:`jupyterhub.services.auth.HubAuth.user_for_token`) and that it may reach this service
(the scope ``access:services!service=<name>``). Nothing a caller sends about itself (a name, a
header, an environment variable) is believed.

In a browser, the tables' pages sit behind the hub's login (:mod:`crazylab.web.hub_pages`,
JupyterHub's OAuth): the hub's login cookie, set for the service's prefix, names the user of the
page's own requests too (:meth:`HubIdentity.user_of`); those requests are JSON from this site's
own origin (checked by every route that changes something), so a cookie sent by another site's
page is never believed.

A **teacher** is a hub admin or a member of the configured group (``--teacher-group``, default
``teachers``), read from the hub with the service's own token (it needs the ``read:users`` and
``read:groups`` scopes, granted by the hub's ``load_roles``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote as url_quote

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.web import HTTPError

TEACHER_GROUP = "teachers"


@dataclass(frozen=True)
class HubUser:
    """A user the hub vouched for."""

    name: str
    teacher: bool = False


class HubUnavailable(Exception):
    """The hub did not answer (it is restarting, or unreachable)."""


class HubIdentity:
    """Identifies requests with the hub (``auth``: a configured ``HubOAuth``, by default from
    the environment JupyterHub gives a managed service)."""

    def __init__(self, auth: Any = None, teacher_group: str = TEACHER_GROUP) -> None:
        if auth is None:
            from jupyterhub.services.auth import HubOAuth

            auth = HubOAuth()
        if not auth.api_token:
            raise ValueError("not a JupyterHub service: $JUPYTERHUB_API_TOKEN is not set")
        self.auth = auth
        self.teacher_group = teacher_group

    def token_of(self, handler: Any) -> str:
        """The hub token a request carries in its Authorization header ("" if none)."""
        return str(self.auth.get_token(handler, in_cookie=False) or "")

    async def user_of(self, handler: Any) -> HubUser | None:
        """The user a request comes from: its hub token (a kernel's ``Authorization``
        header) or, from a page behind the hub's login, the login cookie."""
        return await self.who(str(self.auth.get_token(handler) or ""))

    async def who(self, token: str) -> HubUser | None:
        """The user whose token this is, if the hub knows it and lets it reach this service."""
        if not token:
            return None
        try:
            model = await self.auth.user_for_token(token, sync=False)
        except (HTTPError, OSError) as e:  # the hub could not be asked
            raise HubUnavailable(str(e)) from None
        if not model or model.get("kind", "user") != "user" or not model.get("name"):
            return None
        if not self.auth.check_scopes(self.auth.access_scopes, model):
            return None  # a token without access to this service (a hub admin's own, say)
        name = str(model["name"])
        return HubUser(name, await self.is_teacher(name))

    async def is_teacher(self, name: str) -> bool:
        """Whether the hub says ``name`` is an admin or in the teacher group."""
        request = HTTPRequest(
            f"{self.auth.api_url.rstrip('/')}/users/{url_quote(name, safe='')}",
            headers={"Authorization": f"token {self.auth.api_token}"}, request_timeout=10)
        try:
            response = await AsyncHTTPClient().fetch(request)
        except HTTPClientError as e:
            if e.code in (403, 404):
                return False  # the service may not read users: nobody is a teacher
            raise HubUnavailable(str(e)) from None
        except OSError as e:
            raise HubUnavailable(str(e)) from None
        user = json.loads(response.body or b"{}")
        return bool(user.get("admin")) or self.teacher_group in (user.get("groups") or [])
