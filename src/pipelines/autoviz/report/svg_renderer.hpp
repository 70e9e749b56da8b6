// SvgRenderer turns a Vega-Lite v5 spec (JSON text, data inline) into SVG text the way vega-lite's
// vl2svg does, in one resident node child (assets/autoviz/vl_render_server.js, compiled in) that
// loads vega once and renders spec after spec: a render after the first skips node's start-up
// (~0.15 s) and runs warm. scripts/bootstrap installs vega into third_party/node. When node, the server or
// vega is missing, available() is false and unavailable_reason() says why: callers skip the SVG with that
// notice. warm_up() starts the child before the first render is asked for; start() renders a spec on another
// thread, and render() of that spec then takes its result. The SVG is byte for byte the one a fresh vl2svg
// gives. A render past the timeout kills the child; a child that died is started again for the next render.
// With keep_alive, the server outlives the process on a Unix socket, so a later process (the next `planfirst
// ask`) renders without starting node. Threads may share one renderer (renders take turns); destroying it
// waits for started renders and ends the child (not a shared server, which exits when idle).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::autoviz {

struct SvgRendererOptions {
  std::filesystem::path node;     // the node executable; empty: the first "node" on PATH
  std::filesystem::path script;   // the render server (vl_render_server.js or one speaking its frames)
  std::filesystem::path modules;  // the node_modules folder holding vega and vega-lite
  std::chrono::milliseconds timeout{20000};  // per render, node's start-up included
  // Above 0: renders go to a server on a Unix socket in `runtime_dir` that outlives this process,
  // serves later ones and exits after `keep_alive` without a render; started here when none
  // answers. A renderer that cannot reach it renders in its own child, as with 0. There the
  // timeout counts from the start of this spec's render; a spec that waits as long behind other
  // processes' charts renders in this renderer's own child instead.
  std::chrono::seconds keep_alive{0};
  std::filesystem::path runtime_dir;  // only this user's: made 0700 when missing, else not shared

  // The render server compiled into planfirst (written once to this user's runtime folder), with the
  // vega that scripts/bootstrap installs into the source tree's third_party/node; node from PATH.
  static SvgRendererOptions installed();
};

class SvgRenderer {
 public:
  explicit SvgRenderer(SvgRendererOptions options);
  SvgRenderer(SvgRenderer&&) noexcept;
  SvgRenderer& operator=(SvgRenderer&&) noexcept;
  ~SvgRenderer();

  bool available() const { return reason_.empty(); }
  // Empty when available; otherwise e.g. "node not found on PATH".
  const std::string& unavailable_reason() const { return reason_; }

  // The shared server's socket; empty when renders are not shared.
  const std::filesystem::path& shared_socket() const { return shared_socket_; }

  // Starts the child (or the shared server) now, so the first render skips node's start-up. Nothing when
  // unavailable or the child runs; a child that cannot start leaves the next render to try again.
  void warm_up() const;

  // Renders `spec` on another thread; the next render() of the same text returns its result.
  // Nothing when unavailable or that text is already started. At most kMaxStarted renders are
  // kept: starting one more first waits for the oldest and drops it.
  void start(std::string spec) const;
  static constexpr std::size_t kMaxStarted = 4;

  // The SVG document for `spec`. kFailedPrecondition when unavailable, kInvalidArgument with
  // vega's error when it rejects the spec, kUnavailable when the render runs past the timeout or
  // the child cannot run.
  core::Result<std::string> render(std::string_view spec) const;

 private:
  struct Background;  // the child and the started renders

  // In the child, taking turns; a started render keeps `background`, which outlives a move.
  static core::Result<std::string> render_now(Background& background, std::string_view spec,
                                              std::chrono::milliseconds timeout);

  SvgRendererOptions options_;
  std::filesystem::path node_;  // resolved
  std::string reason_;
  std::filesystem::path shared_socket_;
  std::unique_ptr<Background> background_;  // null only in a moved-from renderer
};

}  // namespace planfirst::autoviz
