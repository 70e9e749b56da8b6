// SvgRenderer turns a Vega-Lite v5 spec (JSON text, data inline) into SVG text by running
// vega-lite's vl2svg under node, which scripts/bootstrap installs into third_party/node. The spec
// goes in on stdin, the SVG comes back on stdout; a run past the timeout is killed. When node or
// the script is missing, available() is false and unavailable_reason() says why: callers skip the
// SVG with that notice. Immutable after construction; threads may share one (each render is its
// own child process).
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

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

  bool available() const { return reason_.empty(); }
  // Empty when available; otherwise e.g. "node not found on PATH".
  const std::string& unavailable_reason() const { return reason_; }

  // The SVG document for `spec`. kFailedPrecondition when unavailable, kInvalidArgument with
  // vl2svg's stderr when it rejects the spec, kUnavailable when it runs past the timeout.
  core::Result<std::string> render(std::string_view spec) const;

 private:
  SvgRendererOptions options_;
  std::filesystem::path node_;  // resolved
  std::string reason_;
};

}  // namespace planfirst::autoviz
