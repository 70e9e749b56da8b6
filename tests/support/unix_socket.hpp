// Unix socket files as tests see them: which file is at a path (a server binding it again makes a
// new one), whether a server listens there, and waiting for a server to remove it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <utility>

namespace planfirst::test_support {

// The socket file at `path` as its inode and change time (an inode number alone may be reused by
// the next file made there); nullopt when no socket is there.
std::optional<std::pair<ino_t, std::int64_t>> socket_identity(const std::filesystem::path& path);

// Whether a fresh connection to `path` succeeds.
bool accepts_connections(const std::filesystem::path& path);

// The process listening on `path` (its peer credentials); nullopt when none answers.
std::optional<pid_t> listening_pid(const std::filesystem::path& path);

// Binds a socket at `path` and closes it without removing the file, as a server that died leaves it.
// False when the bind fails.
bool leave_stale_socket(const std::filesystem::path& path);

// Whether `condition` holds within `limit` (checked every 20 ms, and once more at the end).
bool holds_within(const std::function<bool()>& condition, std::chrono::milliseconds limit);

// Whether `path` is gone within `limit`.
bool disappears_within(const std::filesystem::path& path, std::chrono::milliseconds limit);

// Whether connections to `path` are refused within `limit` (a killed server's socket, once it is dead).
bool stops_accepting_within(const std::filesystem::path& path, std::chrono::milliseconds limit);

}  // namespace planfirst::test_support
