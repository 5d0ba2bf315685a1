"""What opens a phone page with no network on a secure origin (HTTPS, localhost): a small
service worker, its web app manifest and the offline shell (issue 23).

On the room's plain-HTTP Wi-Fi no service worker registers (an insecure origin): there the
outbox of ``config/static/js/phone.js`` keeps the entries, and the page must be opened online.
Where one registers, it caches only the static assets and the **offline shell**, never a phone
page: a cached page could show a result that the next players at the table may not see (the
publication rule), and the worker cannot know when the open round moved on. The shell lists
the entries waiting on the phone for the code in the address (deal numbers only, never an
outcome) and opens the page again once the phone is back online, and every few seconds while
it is online (the server did not answer: restarting, or the Wi-Fi still connecting).
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: The phone pages' paths (any language prefix): /table/<code>/, /cups/room/<code>/,
#: /free-deal/table/<code>/.
PHONE_PATH = r"^/(?:[a-z]{2}(?:-[a-z]+)?/)?(?:table|cups/room|free-deal/table)/[A-Za-z0-9_-]+/$"

SERVICE_WORKER = """// Phone pages offline (clubs/phone_offline.py): static assets network first,
// then from the cache; a phone page that cannot load opens the offline shell.
const CACHE = "duplitarot-phone-1";
const STATIC = %(static)s;
const PHONE = new RegExp(%(phone)s);
const SHELL = new URL(self.location).searchParams.get("shell") || %(shell)s;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const response = await fetch(SHELL, { credentials: "omit" });
    if (response.ok) {
      const html = await response.clone().text();
      await cache.put(SHELL, response);
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
        .map((match) => match[1]).filter((url) => url.startsWith(STATIC));
      await cache.addAll(assets);
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => caches.match(request)));
  } else if (request.mode === "navigate" && PHONE.test(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(SHELL)));
  }
});
"""


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served at the root so that its scope covers every phone page.

    What it caches are the static files the offline shell names (their hashed names outside
    debug): the prefix is ``STATIC_URL`` itself, never ``static("")``, which the hashed storage
    refuses (no file has an empty name: a 500 on every server with debug off)."""
    script = SERVICE_WORKER % {
        "static": json.dumps(settings.STATIC_URL),
        "phone": json.dumps(PHONE_PATH),
        "shell": json.dumps(reverse("phone_offline")),
    }
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest of a phone page (``?start=`` its path)."""
    start = str(request.GET.get("start", ""))
    if not re.match(PHONE_PATH, start):
        start = "/"
    body = {
        "name": "duplitarot",
        "short_name": "duplitarot",
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f4a73",
        "icons": [{"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return HttpResponse(json.dumps(body), content_type="application/manifest+json")


@require_GET
def offline_shell(request: HttpRequest) -> HttpResponse:
    """The page a phone opens with no network (from the service worker's cache)."""
    return render(request, "clubs/phone/offline.html")
