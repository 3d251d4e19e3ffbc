// connection_table.h — the server's connections per client address, and the memory of the
// answers they have not read yet, so that no client can lock the others out:
//  - at the per-client or the total connection limit, the oldest *idle* connection (one waiting
//    for a request) of that client, resp. of anyone, is closed to make room; a new connection is
//    refused only when every connection at the limit is working on a request;
//  - a client whose unread answers pass its budget, or any client while all unread answers pass
//    the total budget, gets its next request answered 503 without computing it.
// Thread-safe: sessions on different strands call in; closing another session is posted to its
// strand through the closer it registered.
#ifndef MEMTRACER_VIEWER_CONNECTION_TABLE_H
#define MEMTRACER_VIEWER_CONNECTION_TABLE_H

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace mt::viewer {

struct ConnectionLimits {
    int max_total = 256;
    int max_per_client = 32;
    uint64_t unread_per_client = 32ull << 20;
    uint64_t unread_total = 128ull << 20;
};

class ConnectionTable {
public:
    class Slot;
    explicit ConnectionTable(ConnectionLimits lim) : lim_(lim) {}

    // Admits a connection from `client` (closing an idle one if a limit is reached), or nullptr:
    // refuse it. The slot counts until it is destroyed or evicted.
    std::shared_ptr<Slot> admit(const std::string &client);
    // How to close this connection from another thread (posts to its strand).
    void set_closer(Slot &s, std::function<void()> close);
    // The connection waits for a request (may be evicted) / starts working on one. Both return
    // false when it was evicted: close it.
    bool idle(Slot &s);
    bool busy(Slot &s);
    // Whether the client may have another answer computed (under both unread budgets), and
    // if not, why.
    std::string over_budget(const Slot &s) const;
    // An answer of `bytes` is being written / was written (or dropped).
    void hold(Slot &s, uint64_t bytes);
    void unhold(Slot &s);

    int connections() const;
    uint64_t unread_total() const;
    ConnectionLimits limits() const { return lim_; }

private:
    struct Client {
        int connections = 0;
        uint64_t unread = 0;
    };
    void release(Slot &s);
    bool evict_oldest_idle(const std::string *client);  // under mu_

    ConnectionLimits lim_;
    mutable std::mutex mu_;
    std::map<std::string, Client> clients_;
    std::list<Slot *> slots_;
    int total_ = 0;
    uint64_t unread_ = 0;
    uint64_t clock_ = 0;  // orders idle times without a clock
};

class ConnectionTable::Slot {
public:
    ~Slot();
    const std::string &client() const { return client_; }

private:
    friend class ConnectionTable;
    Slot(ConnectionTable &t, std::string client) : table_(t), client_(std::move(client)) {}
    ConnectionTable &table_;
    std::string client_;
    std::list<Slot *>::iterator pos_;
    std::function<void()> close_;
    bool idle_ = true, evicted_ = false;
    uint64_t idle_since_ = 0, held_ = 0;
};

}  // namespace mt::viewer

#endif
