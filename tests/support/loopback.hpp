// start_loopback binds an httplib::Server whose routes are set to 127.0.0.1 on a free port and serves
// it from `thread` until stop_loopback; the test servers' shared start and stop. Throws
// std::runtime_error naming `who` when loopback cannot be bound. free_loopback_port is a port for a
// server process of its own (PostgreSQL, llama-server).
#pragma once

#include <thread>

namespace httplib {
class Server;
}

namespace planfirst::test_support {

int start_loopback(httplib::Server& http, std::thread& thread, const char* who);  // the port
void stop_loopback(httplib::Server& http, std::thread& thread);
// A port that was free on 127.0.0.1 a moment ago (the kernel picks it); -1 when none can be had.
int free_loopback_port();

}  // namespace planfirst::test_support
