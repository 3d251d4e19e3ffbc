#include "connection_table.h"

namespace mt::viewer {

ConnectionTable::Slot::~Slot() { table_.release(*this); }

std::shared_ptr<ConnectionTable::Slot> ConnectionTable::admit(const std::string &client) {
    std::lock_guard lk(mu_);
    auto it = clients_.find(client);
    if (it != clients_.end() && it->second.connections >= lim_.max_per_client && !evict_oldest_idle(&client))
        return nullptr;
    if (total_ >= lim_.max_total && !evict_oldest_idle(nullptr)) return nullptr;
    std::shared_ptr<Slot> s(new Slot(*this, client));
    s->idle_since_ = ++clock_;
    s->pos_ = slots_.insert(slots_.end(), s.get());
    ++clients_[client].connections;
    ++total_;
    return s;
}

bool ConnectionTable::evict_oldest_idle(const std::string *client) {
    Slot *victim = nullptr;
    for (Slot *s : slots_)
        if (s->idle_ && !s->evicted_ && (!client || s->client_ == *client) &&
            (!victim || s->idle_since_ < victim->idle_since_))
            victim = s;
    if (!victim) return false;
    // The victim stops counting now; its session sees `evicted_` at its next step and closes
    // (a request that arrived in between is dropped, like on any closed keep-alive connection).
    victim->evicted_ = true;
    --total_;
    --clients_[victim->client_].connections;
    if (victim->close_) victim->close_();
    return true;
}

void ConnectionTable::set_closer(Slot &s, std::function<void()> close) {
    std::lock_guard lk(mu_);
    s.close_ = std::move(close);
    if (s.evicted_) s.close_();  // evicted before it could be told
}

bool ConnectionTable::idle(Slot &s) {
    std::lock_guard lk(mu_);
    if (!s.idle_) s.idle_since_ = ++clock_;
    s.idle_ = true;
    return !s.evicted_;
}

bool ConnectionTable::busy(Slot &s) {
    std::lock_guard lk(mu_);
    s.idle_ = false;
    return !s.evicted_;
}

std::string ConnectionTable::over_budget(const Slot &s) const {
    std::lock_guard lk(mu_);
    auto it = clients_.find(s.client_);
    uint64_t mine = it == clients_.end() ? 0 : it->second.unread;
    if (mine >= lim_.unread_per_client)
        return "this client has " + std::to_string(mine) + " bytes of answers it has not read (limit " +
               std::to_string(lim_.unread_per_client) + "); read them, then retry";
    if (unread_ >= lim_.unread_total)
        return "the server holds " + std::to_string(unread_) + " bytes of answers its clients have not read (limit " +
               std::to_string(lim_.unread_total) + "); retry";
    return "";
}

void ConnectionTable::hold(Slot &s, uint64_t bytes) {
    std::lock_guard lk(mu_);
    s.held_ += bytes;
    clients_[s.client_].unread += bytes;
    unread_ += bytes;
}

void ConnectionTable::unhold(Slot &s) {
    std::lock_guard lk(mu_);
    auto it = clients_.find(s.client_);
    if (it != clients_.end()) it->second.unread -= s.held_;
    unread_ -= s.held_;
    s.held_ = 0;
}

void ConnectionTable::release(Slot &s) {
    std::lock_guard lk(mu_);
    slots_.erase(s.pos_);
    auto it = clients_.find(s.client_);
    if (it != clients_.end()) {
        it->second.unread -= s.held_;
        if (!s.evicted_) --it->second.connections;
        if (it->second.connections == 0 && it->second.unread == 0) clients_.erase(it);
    }
    unread_ -= s.held_;
    if (!s.evicted_) --total_;
}

int ConnectionTable::connections() const {
    std::lock_guard lk(mu_);
    return total_;
}

uint64_t ConnectionTable::unread_total() const {
    std::lock_guard lk(mu_);
    return unread_;
}

}  // namespace mt::viewer
