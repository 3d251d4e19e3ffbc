#include "clickhouse_server.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "clickhouse.h"

namespace mt::test {

uint16_t free_port() {
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(s, reinterpret_cast<sockaddr *>(&a), sizeof a);
    socklen_t n = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr *>(&a), &n);
    ::close(s);
    return ntohs(a.sin_port);
}

TempDir::TempDir() {
    std::string t = "/tmp/mt-fleet-XXXXXX";
    if (!::mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path = t;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

ClickHouseServer::ClickHouseServer(std::string dir, uint16_t http_port, uint16_t tcp_port, std::vector<uint16_t> cluster)
    : dir_(std::move(dir)), http_port_(http_port), tcp_port_(tcp_port) {
    for (const char *d : {"/data", "/tmp", "/user_files", "/log"}) std::filesystem::create_directories(dir_ + d);
    std::ofstream c(dir_ + "/config.xml");
    c << "<?xml version=\"1.0\"?>\n<yandex>\n"
      << "<logger><level>warning</level><log>" << dir_ << "/log/server.log</log><errorlog>" << dir_
      << "/log/err.log</errorlog><console>0</console></logger>\n"
      << "<http_port>" << http_port_ << "</http_port><tcp_port>" << tcp_port_ << "</tcp_port>\n"
      << "<listen_host>127.0.0.1</listen_host>\n"
      << "<path>" << dir_ << "/data/</path><tmp_path>" << dir_ << "/tmp/</tmp_path>\n"
      << "<user_files_path>" << dir_ << "/user_files/</user_files_path>\n"
      << "<users_config>/etc/clickhouse-server/users.xml</users_config>\n"
      << "<default_profile>default</default_profile><default_database>default</default_database>\n"
      << "<mark_cache_size>5368709</mark_cache_size>\n";
    if (!cluster.empty()) {
        c << "<remote_servers><mt_test>";
        for (uint16_t p : cluster)
            c << "<shard><replica><host>127.0.0.1</host><port>" << p << "</port></replica></shard>";
        c << "</mt_test></remote_servers>\n";
    }
    c << "</yandex>\n";
}

ClickHouseServer::~ClickHouseServer() { stop(); }

void ClickHouseServer::start() {
    child_ = proc::Child::spawn_logged({"/usr/sbin/clickhouse-server", "--config-file=" + dir_ + "/config.xml"},
                                       dir_ + "/log/stdout.log");
    fleet::ClickHouse ch(fleet::ClickHouseUrl::parse(url("default")));
    // Bounded wait for the state we need (it answers), not a sleep: 120 s on a loaded machine.
    for (int i = 0; i < 1200; ++i) {
        try {
            if (ch.execute("SELECT 1") == "1\n") return;
        } catch (const std::exception &) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    throw std::runtime_error("clickhouse-server on port " + std::to_string(http_port_) + " did not answer; see " + dir_ + "/log");
}

void ClickHouseServer::stop() {
    if (child_.running()) child_ = proc::Child();  // kills and reaps
}

}  // namespace mt::test
