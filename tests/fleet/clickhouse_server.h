// clickhouse_server.h — a real clickhouse-server for a test: its own config, data and log under
// a temporary folder, loopback HTTP and TCP ports, optionally one shard of a two-shard cluster
// ("mt_test"). start() waits (bounded poll) until it answers; stop() kills it and waits.
#pragma once

#include <memtracer/process.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mt::test {

uint16_t free_port();

class ClickHouseServer {
public:
    // `cluster_tcp_ports`: the TCP ports of every shard of cluster mt_test (empty: no cluster).
    ClickHouseServer(std::string dir, uint16_t http_port, uint16_t tcp_port, std::vector<uint16_t> cluster_tcp_ports = {});
    ~ClickHouseServer();
    void start();
    void stop();
    std::string url(const std::string &db) const { return "clickhouse://127.0.0.1:" + std::to_string(http_port_) + "/" + db; }
    uint16_t http_port() const { return http_port_; }

private:
    std::string dir_;
    uint16_t http_port_, tcp_port_;
    proc::Child child_;
};

// A folder under /tmp removed (with what is in it) when the object goes.
struct TempDir {
    std::string path;
    TempDir();
    ~TempDir();
};

}  // namespace mt::test
