"""The official MCP Python SDK (`mcp` on PyPI) as a real client of our tool server.

Run by `cargo xtask conformance` against a running server:

    python tests/mcp_client/test_sdk.py http://127.0.0.1:PORT API_KEY
    python tests/mcp_client/test_sdk.py --cimd http://127.0.0.1:PORT CERT.pem KEY.pem

The second form identifies the client by a client ID metadata document instead of
registering: the script serves the document over https on `localhost` (with the given
certificate, which the server under test trusts), and the server fetches it.

It signs a person in the way an agent would, headless: the SDK's OAuthClientProvider discovers
the authorization server from the 401, registers itself dynamically, sends the person to the
authorization URL (here a small scripted browser signs up, confirms the address, signs in and
consents through the site's pages), exchanges the code with PKCE, and calls a tool that needs
the account. Then it uses an API key, in both protocol eras. Exits non-zero on the first failed
check.

Only an account whose address is confirmed lets an app in, so the scripted browser follows the
confirmation link the sign-up e-mailed: it reads it from the server's outbox with
`$LAUNCHDIR_BIN outbox list`, on the server's `$LAUNCHDIR_DATA_DIR` (`cargo xtask conformance`
sets both).
"""

import asyncio
import os
import re
import subprocess
import sys
import uuid
from urllib.parse import parse_qs, quote, urlencode, urlparse

import httpx2 as httpx
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

REDIRECT = "http://localhost:3030/callback"


class MemoryStorage:
    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull):
        self.client_info = client_info


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert match, f"no {name} field in the page"
    return match.group(1).replace("&#43;", "+").replace("&#47;", "/").replace("&#61;", "=")


def confirmation_link(email: str) -> str:
    """The confirmation link e-mailed to `email`, read from the server's outbox."""
    listed = subprocess.run(
        [os.environ["LAUNCHDIR_BIN"], "outbox", "list", "--limit", "50"],
        capture_output=True, text=True, check=True, env={**os.environ, "LAUNCHDIR_LOG_LEVEL": "error"},
    ).stdout
    for entry in listed.split("\n#"):
        if f" to {email} [confirm_email]" in entry:
            found = re.search(r"\S+/account/confirm\?token=\S+", entry)
            assert found, entry
            return found.group(0)
    raise AssertionError(f"no confirmation link for {email} in the outbox")


class ScriptedBrowser:
    """Plays the person: signs up and in on the site and allows the scopes the agent asked for."""

    def __init__(self, base: str, allow: list[str]):
        self.base = base
        self.allow = allow
        self.result: AuthorizationCodeResult | None = None

    async def open(self, authorization_url: str) -> None:
        async with httpx.AsyncClient(follow_redirects=False) as browser:
            response = await browser.get(authorization_url)
            assert response.status_code == 302, f"not signed in: expected the sign-in page, got {response.status_code}"
            next_path = parse_qs(urlparse(response.headers["location"]).query)["next"][0]
            page = await browser.get(f"{self.base}/signup?next={quote(next_path)}")
            email = f"sdk-{uuid.uuid4().hex}@example.com"
            response = await browser.post(
                f"{self.base}/signup",
                data={"csrf": hidden(page.text, "csrf"), "next": next_path, "name": "SDK Tester", "email": email, "password": "a long enough password"},
            )
            # Signing up answers "check your inbox" (the same for a taken address) and signs
            # nobody in: the person signs in next, and comes back to the consent page.
            assert response.status_code == 200 and "Check your inbox" in response.text, \
                f"sign-up failed: {response.status_code} {response.text[:300]}"
            # Only a confirmed address lets an app in: the person follows the e-mailed link.
            link = confirmation_link(email)
            page = await browser.get(self.base + link[link.index("/account/confirm"):])
            confirmed = await browser.post(f"{self.base}/account/confirm", data={"token": hidden(page.text, "token")})
            assert confirmed.status_code == 200 and "is confirmed" in confirmed.text, \
                f"confirming failed: {confirmed.status_code} {confirmed.text[:300]}"
            page = await browser.get(f"{self.base}/signin?next={quote(next_path)}")
            response = await browser.post(
                f"{self.base}/signin",
                data={"csrf": hidden(page.text, "csrf"), "next": next_path, "email": email, "password": "a long enough password"},
            )
            assert response.status_code == 303, f"sign-in failed: {response.status_code} {response.text[:300]}"
            consent = await browser.get(self.base + response.headers["location"])
            assert consent.status_code == 200 and "Allow" in consent.text, consent.text[:300]
            fields = [(name, hidden(consent.text, name)) for name in
                      ["csrf", "client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "resource", "scope", "state"]]
            fields.append(("decision", "allow"))
            fields += [("allow", scope) for scope in self.allow]
            response = await browser.post(
                f"{self.base}/oauth/authorize",
                content=urlencode(fields),
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
            assert response.status_code == 302, f"consent failed: {response.status_code} {response.text[:300]}"
            location = response.headers["location"]
            assert location.startswith(REDIRECT), location
            query = parse_qs(urlparse(location).query)
            self.result = AuthorizationCodeResult(code=query["code"][0], state=query.get("state", [None])[0], iss=query.get("iss", [None])[0])

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None, "the browser did not finish"
        return self.result


def structured(result):
    assert not result.is_error, f"tool error: {result}"
    return result.structured_content


async def oauth_flow(base: str, mode: str, client_metadata_url: str | None = None) -> None:
    browser = ScriptedBrowser(base, allow=["account:read"])
    storage = MemoryStorage()
    provider = OAuthClientProvider(
        server_url=f"{base}/mcp",
        client_metadata=OAuthClientMetadata(
            client_name="Python SDK test",
            redirect_uris=[REDIRECT],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
            scope="account:read listings:write",
        ),
        storage=storage,
        redirect_handler=browser.open,
        callback_handler=browser.callback,
        client_metadata_url=client_metadata_url,
    )
    async with httpx.AsyncClient(auth=provider, timeout=30) as http:
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http), mode=mode) as client:
            tools = await client.list_tools()
            names = [tool.name for tool in tools.tools]
            assert "get_account" in names and "submit_listing" in names, names
            account = structured(await client.call_tool("get_account", {}))
            assert account["credential"]["type"] == "oauth_access_token", account
            assert account["scopes"] == ["account:read"], "the person narrowed the scopes at consent"
            site = structured(await client.call_tool("get_site_info", {}))
            assert site["name"], site
            if client_metadata_url:
                assert account["credential"]["client_id"] == client_metadata_url, account
    how = "client ID metadata document" if client_metadata_url else "dynamic registration"
    print(f"ok: OAuth sign-in ({how}, PKCE, consent) and tool calls, mode={mode}")


def serve_metadata_document(cert: str, key: str) -> str:
    """Serves a client ID metadata document over https on localhost; returns its URL."""
    import http.server
    import json
    import ssl
    import threading

    document = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps(document).encode()
            self.send_response(200 if self.path == "/client.json" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    url = f"https://localhost:{server.server_address[1]}/client.json"
    document.update({
        "client_id": url,
        "client_name": "Python SDK (metadata document)",
        "redirect_uris": [REDIRECT],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    })
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return url


async def api_key_flow(base: str, key: str, mode: str) -> None:
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30) as http:
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http), mode=mode) as client:
            account = structured(await client.call_tool("get_account", {}))
            assert account["credential"]["type"] == "api_key", account
            refused = await client.call_tool("get_category", {"slug": "Not A Slug"})
            assert refused.is_error and refused.structured_content["code"] == "validation_failed", refused
    print(f"ok: API key and tool errors, mode={mode}")


async def main() -> None:
    if sys.argv[1] == "--cimd":
        base, cert, key = sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4]
        url = serve_metadata_document(cert, key)
        await oauth_flow(base, "2026-07-28", client_metadata_url=url)
        await oauth_flow(base, "legacy", client_metadata_url=url)
        return
    base, key = sys.argv[1].rstrip("/"), sys.argv[2]
    await oauth_flow(base, "2026-07-28")
    await oauth_flow(base, "legacy")
    await api_key_flow(base, key, "2026-07-28")
    await api_key_flow(base, key, "legacy")


if __name__ == "__main__":
    asyncio.run(main())
