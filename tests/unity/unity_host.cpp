#include "unity_host.h"

#include <algorithm>

namespace unity_host {
namespace {

constexpr size_t kMaxCallbacks = 4;  // "Only up to 4 callbacks can be registered."

template <class Fn>
int add(std::vector<std::pair<Fn, void *>> &list, Fn fn, void *user) {
    if (fn == nullptr || list.size() >= kMaxCallbacks) return 1;
    list.emplace_back(fn, user);
    return 0;
}

template <class Fn>
int remove(std::vector<std::pair<Fn, void *>> &list, Fn fn, void *user) {
    auto it = std::find(list.begin(), list.end(), std::make_pair(fn, user));
    if (it == list.end()) return 1;
    list.erase(it);
    return 0;
}

IUnityInterface *UNITY_INTERFACE_API get_split(unsigned long long high, unsigned long long low) {
    Host &h = instance();
    ++h.interface_requests;
    bool v1 = high == kUnityProfilerCallbacksGUID.m_GUIDHigh && low == kUnityProfilerCallbacksGUID.m_GUIDLow;
    return v1 ? &h.callbacks : nullptr;
}
IUnityInterface *UNITY_INTERFACE_API get(UnityInterfaceGUID guid) { return get_split(guid.m_GUIDHigh, guid.m_GUIDLow); }

int UNITY_INTERFACE_API reg_frame(IUnityProfilerFrameCallback cb, void *u) { return add(instance().frame_callbacks, cb, u); }
int UNITY_INTERFACE_API unreg_frame(IUnityProfilerFrameCallback cb, void *u) { return remove(instance().frame_callbacks, cb, u); }
int UNITY_INTERFACE_API reg_thread(IUnityProfilerThreadCallback cb, void *u) { return add(instance().thread_callbacks, cb, u); }
int UNITY_INTERFACE_API unreg_thread(IUnityProfilerThreadCallback cb, void *u) { return remove(instance().thread_callbacks, cb, u); }

int UNITY_INTERFACE_API reg_create_marker(IUnityProfilerCreateMarkerCallback cb, void *u) {
    Host &h = instance();
    if (add(h.create_marker_callbacks, cb, u) != 0) return 1;
    for (auto &m : h.markers) cb(&m.desc, u);  // "also called for all existing markers"
    return 0;
}
int UNITY_INTERFACE_API unreg_create_marker(IUnityProfilerCreateMarkerCallback cb, void *u) {
    return remove(instance().create_marker_callbacks, cb, u);
}
Host::Marker *marker_of(const UnityProfilerMarkerDesc *desc) {
    for (auto &m : instance().markers)
        if (&m.desc == desc) return &m;
    return nullptr;
}
int UNITY_INTERFACE_API reg_marker_event(const UnityProfilerMarkerDesc *desc, IUnityProfilerMarkerEventCallback cb,
                                         void *u) {
    Host::Marker *m = marker_of(desc);
    if (m == nullptr || cb == nullptr) return 1;
    m->event_callbacks.emplace_back(cb, u);
    return 0;
}
// NULL desc: from every marker with this (callback, userData) pair, as the header documents.
int UNITY_INTERFACE_API unreg_marker_event(const UnityProfilerMarkerDesc *desc, IUnityProfilerMarkerEventCallback cb,
                                           void *u) {
    int removed = 0;
    for (auto &m : instance().markers) {
        if (desc != nullptr && &m.desc != desc) continue;
        auto &l = m.event_callbacks;
        auto end = std::remove(l.begin(), l.end(), std::make_pair(cb, u));
        removed += static_cast<int>(l.end() - end);
        l.erase(end, l.end());
    }
    return removed > 0 ? 0 : 1;
}

}  // namespace

Host::Host() {
    interfaces.GetInterface = &get;
    interfaces.GetInterfaceSplit = &get_split;
    callbacks.RegisterFrameCallback = &reg_frame;
    callbacks.UnregisterFrameCallback = &unreg_frame;
    callbacks.RegisterCreateThreadCallback = &reg_thread;
    callbacks.UnregisterCreateThreadCallback = &unreg_thread;
    callbacks.RegisterCreateMarkerCallback = &reg_create_marker;
    callbacks.UnregisterCreateMarkerCallback = &unreg_create_marker;
    callbacks.RegisterMarkerEventCallback = &reg_marker_event;
    callbacks.UnregisterMarkerEventCallback = &unreg_marker_event;
}

const UnityProfilerMarkerDesc *Host::create_marker(const char *name) {
    Marker &m = markers.emplace_back();
    m.name = name;
    m.desc.id = static_cast<UnityProfilerMarkerId>(markers.size());
    m.desc.name = m.name.c_str();
    for (auto [fn, user] : create_marker_callbacks) fn(&m.desc, user);
    return &m.desc;
}

void Host::emit(const UnityProfilerMarkerDesc *desc, UnityProfilerMarkerEventType type) {
    Marker *m = marker_of(desc);
    if (m == nullptr) return;
    for (auto [fn, user] : m->event_callbacks) fn(desc, type, 0, nullptr, user);
}

size_t Host::marker_event_callbacks() const {
    size_t n = 0;
    for (const auto &m : markers) n += m.event_callbacks.size();
    return n;
}

void Host::new_frame() {
    for (auto [fn, user] : frame_callbacks) fn(user);
}

void Host::register_thread(uint64_t thread_id, const char *name) {
    UnityProfilerThreadDesc desc{thread_id, "Job", name};
    for (auto [fn, user] : thread_callbacks) fn(&desc, user);
}

Host &instance() {
    static Host host;
    return host;
}

}  // namespace unity_host
