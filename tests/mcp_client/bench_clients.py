"""What a tool call costs against its REST twin, for three kinds of client, in one run.

Run by `cargo xtask bench --mcp` against a running server (answer cache and rate limits off):

    python tests/mcp_client/bench_clients.py http://127.0.0.1:PORT [LABEL]

For `get_site_info` and `get_listing` (a different listing each call), it times the REST read and
the tool call, interleaved, with:

- a kept-alive plain HTTP client (one `http.client` connection for everything, reading each
  answer whole, as most simple integrations do), MCP in both protocol eras: a legacy session
  (`initialize`, answers as an event stream) and 2026-07-28 (stateless, answers as JSON);
- a new connection per call (the same client, connecting again each time);
- the official MCP Python SDK (`mcp`), in both eras, with REST read through the SDK's own
  HTTP client (`httpx`, kept alive).

Prints a Markdown table: median and p99 in milliseconds, and the tool call's median as a
multiple of its REST twin's.
"""

import asyncio
import http.client
import json
import statistics
import sys
import time
from urllib.parse import urlparse

import httpx2 as httpx
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROUNDS = 300
WARM_UP = 30
MODERN = "2026-07-28"
LEGACY = "2025-11-25"


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)]


class Plain:
    """A plain HTTP client on `http.client`: one kept-alive connection, or a new one per call."""

    def __init__(self, base: str, keep_alive: bool):
        address = urlparse(base)
        self.host, self.port, self.keep_alive = address.hostname, address.port, keep_alive
        self.connection = None
        self.session = None
        self.calls = 0

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, bytes]:
        if self.connection is None or not self.keep_alive:
            if self.connection is not None:
                self.connection.close()
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self.connection.request(method, path, body=body, headers=headers or {})
        response = self.connection.getresponse()
        data = response.read()
        return response.status, {key.lower(): value for key, value in response.getheaders()}, data

    def rest(self, path: str) -> None:
        status, _, _ = self.request("GET", path)
        assert status == 200, (path, status)

    def rpc(self, message: dict, era: str) -> bytes:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if era == MODERN:
            headers |= {"MCP-Protocol-Version": MODERN, "Mcp-Method": message["method"]}
            if message["method"] == "tools/call":
                headers["Mcp-Name"] = message["params"]["name"]
                message["params"]["_meta"] = {
                    "io.modelcontextprotocol/protocolVersion": MODERN,
                    "io.modelcontextprotocol/clientCapabilities": {},
                }
        elif self.session:
            headers |= {"Mcp-Session-Id": self.session, "MCP-Protocol-Version": LEGACY}
        status, answer_headers, data = self.request("POST", "/mcp", json.dumps(message).encode(), headers)
        assert status in (200, 202), (status, data[:300])
        if message.get("method") == "initialize":
            self.session = answer_headers.get("mcp-session-id")
        return data

    def start_legacy_session(self) -> None:
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
        }
        self.rpc(init, LEGACY)
        self.rpc({"jsonrpc": "2.0", "method": "notifications/initialized"}, LEGACY)

    def call(self, tool: str, arguments: dict, era: str) -> None:
        self.calls += 1
        answer = self.rpc({"jsonrpc": "2.0", "id": self.calls, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}, era)
        assert b'"isError":true' not in answer, answer[:300]


def reads(slugs: list[str]):
    """The reads measured: (name, REST path of round i, tool, arguments of round i)."""
    return [
        ("get_site_info", lambda i: "/api/v1/site", "get_site_info", lambda i: {}),
        ("get_listing", lambda i: f"/api/v1/listings/{slugs[i % len(slugs)]}", "get_listing", lambda i: {"slug": slugs[i % len(slugs)]}),
    ]


def plain_rows(base: str, slugs: list[str], keep_alive: bool) -> list[tuple]:
    client = Plain(base, keep_alive)
    label = "kept-alive plain HTTP" if keep_alive else "new connection per call"
    rows = []
    for name, path, tool, arguments in reads(slugs):
        for era in (LEGACY, MODERN):
            if era == LEGACY:
                client.session = None
                client.start_legacy_session()
            rest, mcp = [], []
            for i in range(WARM_UP + ROUNDS):
                started = time.perf_counter()
                client.rest(path(i))
                rest_time = time.perf_counter() - started
                started = time.perf_counter()
                client.call(tool, arguments(i), era)
                mcp_time = time.perf_counter() - started
                if i >= WARM_UP:
                    rest.append(rest_time * 1000)
                    mcp.append(mcp_time * 1000)
            rows.append((label, name, "legacy session" if era == LEGACY else MODERN, summary(rest), summary(mcp)))
    return rows


async def sdk_rows(base: str, slugs: list[str]) -> list[tuple]:
    rows = []
    async with httpx.AsyncClient(timeout=30) as http_client:
        for era, mode in ((LEGACY, "legacy"), (MODERN, MODERN)):
            async with Client(streamable_http_client(f"{base}/mcp", http_client=http_client), mode=mode) as client:
                for name, path, tool, arguments in reads(slugs):
                    rest, mcp = [], []
                    for i in range(WARM_UP + ROUNDS):
                        started = time.perf_counter()
                        answer = await http_client.get(base + path(i))
                        assert answer.status_code == 200
                        rest_time = time.perf_counter() - started
                        started = time.perf_counter()
                        result = await client.call_tool(tool, arguments(i))
                        assert not result.is_error, result
                        mcp_time = time.perf_counter() - started
                        if i >= WARM_UP:
                            rest.append(rest_time * 1000)
                            mcp.append(mcp_time * 1000)
                    rows.append(("the MCP Python SDK", name, "legacy session" if era == LEGACY else MODERN, summary(rest), summary(mcp)))
    return rows


def main() -> None:
    base = sys.argv[1].rstrip("/")
    label = sys.argv[2] if len(sys.argv) > 2 else base
    listing = Plain(base, True)
    _, _, data = listing.request("GET", "/api/v1/listings?per_page=100")
    slugs = [item["slug"] for item in json.loads(data)["items"]]
    rows = plain_rows(base, slugs, True) + plain_rows(base, slugs, False) + asyncio.run(sdk_rows(base, slugs))
    print(f"\n{label}: {ROUNDS} calls each after {WARM_UP} to warm up, REST and the tool call interleaved\n")
    print("| client | read | MCP era | REST median | REST p99 | tools/call median | tools/call p99 | tools/call ÷ REST |")
    print("|---|---|---|---|---|---|---|---|")
    for client, name, era, (rest_median, rest_p99), (mcp_median, mcp_p99) in rows:
        ratio = mcp_median / rest_median
        print(f"| {client} | `{name}` | {era} | {rest_median:.2f} ms | {rest_p99:.2f} ms | {mcp_median:.2f} ms | {mcp_p99:.2f} ms | {ratio:.2f}× |")


if __name__ == "__main__":
    main()
