// SvgRenderer turns a Vega-Lite v5 spec (JSON text, data inline) into SVG text by running
// vega-lite's vl2svg under node, which scripts/bootstrap installs into third_party/node. The spec
// goes in on stdin, the SVG comes back on stdout; a run past the timeout is killed. When node or
// the script is missing, available() is false and unavailable_reason() says why: callers skip the
// SVG with that notice. Node loading vega takes a good part of a render (~0.15 s), so a caller that
// knows a render is coming can warm_up() a child that loads it and waits for its spec, and one that
// knows the spec before it needs the SVG can start() it on another thread; render() of that spec
// then takes its result. Either way the SVG is the one a fresh child gives. Threads may share one
// renderer (each render is its own child process; the waiting child and the started renders are
// guarded by one mutex); destroying it waits for started renders and ends a child still waiting.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::autoviz {

struct SvgRendererOptions {
  std::filesystem::path node;    // the node executable; empty: the first "node" on PATH
  std::filesystem::path script;  // vega-lite's bin/vl2svg
  std::chrono::milliseconds timeout{20000};

  // The script scripts/bootstrap installs into third_party/node of the source tree planfirst was
  // built from; node from PATH.
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

  // Starts a child for the next render, which then skips node's start-up. Nothing when unavailable
  // or a child already waits; a child that cannot start leaves the next render to start its own.
  void warm_up() const;

  // Renders `spec` on another thread (in the waiting child, if any); the next render() of the same
  // text returns its result. Nothing when unavailable or that text is already started. At most
  // kMaxStarted renders are kept: starting one more first waits for the oldest and drops it.
  void start(std::string spec) const;
  static constexpr std::size_t kMaxStarted = 4;

  // The SVG document for `spec`. kFailedPrecondition when unavailable, kInvalidArgument with
  // vl2svg's stderr when it rejects the spec, kUnavailable when it runs past the timeout.
  core::Result<std::string> render(std::string_view spec) const;

 private:
  struct Background;  // the waiting child and the started renders

  std::vector<std::string> command() const;  // node and the script

  SvgRendererOptions options_;
  std::filesystem::path node_;  // resolved
  std::string reason_;
  std::unique_ptr<Background> background_;  // null only in a moved-from renderer
};

}  // namespace planfirst::autoviz
