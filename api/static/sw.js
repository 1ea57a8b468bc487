// The service worker of Web Push (docs/PROTOCOL.md "Web Push"): served at /sw.js so that its scope
// is the whole site. A push message is the server's notice (JSON: text, kind, game_id, url); it is
// shown as a notification, and a click opens (or focuses) the game's page.

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { text: event.data ? event.data.text() : "" };
  }
  const title = { reminder: "Little time left", game_over: "Game over", your_move: "Your move" }[notice.kind] || "Blue & Gray";
  event.waitUntil(self.registration.showNotification(`Blue & Gray — ${title}`, {
    body: notice.text || "",
    tag: notice.game_id ? `bluegray-${notice.game_id}` : "bluegray",
    data: { path: notice.game_id ? `/play/${notice.game_id}` : "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.path) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((open) => {
    const there = open.find((c) => new URL(c.url).pathname === path);
    return there ? there.focus() : self.clients.openWindow(path);
  }));
});
