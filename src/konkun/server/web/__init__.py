"""The HTTP and WebSocket side: incoming messages (:mod:`.messages`), the account and
analysis routes, and the request throttle. :func:`konkun.server.app.create_app` wires them."""
