// guard.h — who may ask what, decided from a request's headers alone (no sockets, so every rule
// is tested directly): the Host check against DNS rebinding, the cross-site check on requests
// that change state, and the token of a server reachable from other machines. docs/viewer.md
// ("Security") explains each rule.
#ifndef MEMTRACER_VIEWER_GUARD_H
#define MEMTRACER_VIEWER_GUARD_H

#include <optional>
#include <string>
#include <string_view>

#include "memtracer/viewer/query.h"

namespace mt::viewer {

// The headers the rules read; empty when absent (has_origin tells "Origin:" from no Origin).
struct RequestFacts {
    std::string_view method, host, origin, fetch_site, authorization, token_header;
    bool has_origin = false;
};

struct GuardPolicy {
    bool loopback = true;        // listening on a loopback address
    std::string token;           // "" = none required
    std::string machine_name;    // this host's name, accepted in Host on a remote server
};

// Loopback host names: localhost, 127.x.y.z, [::1], with or without a port.
bool loopback_host(std::string_view host);
// An IP literal (v4 or bracketed v6) with or without a port: not a name DNS rebinding can move.
bool ip_literal_host(std::string_view host);
// "" when the request may proceed, else why not; `cross_site` is only about state changes.
std::string cross_site_refusal(const RequestFacts &r);
// Whether the request carries `token` ("Authorization: Bearer T" or "X-MemTracer-Token: T").
bool carries_token(const RequestFacts &r, const std::string &token);
// GET and HEAD read; every other method may change state.
bool changes_state(std::string_view method);
// The first rule the request breaks, as the answer to give (403 or 401), or nothing.
std::optional<Response> guard(const RequestFacts &r, const GuardPolicy &p);
// 32 random hex digits from the system's random source.
std::string random_token();

}  // namespace mt::viewer

#endif
