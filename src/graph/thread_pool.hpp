// ThreadPool runs submitted tasks on a fixed set of worker threads, first in first out; fan-out
// branches run on it. The destructor finishes queued tasks, then joins. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace planfirst::graph {

class ThreadPool {
 public:
  explicit ThreadPool(std::size_t threads);  // at least one thread
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  template <typename F>
  std::future<std::invoke_result_t<F>> submit(F task) {
    auto packaged = std::make_shared<std::packaged_task<std::invoke_result_t<F>()>>(std::move(task));
    std::future<std::invoke_result_t<F>> future = packaged->get_future();
    enqueue([packaged] { (*packaged)(); });
    return future;
  }

  std::size_t size() const { return workers_.size(); }

 private:
  void enqueue(std::function<void()> task);
  void work();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;  // guarded by mutex_
  bool stopping_ = false;                    // guarded by mutex_
  std::vector<std::thread> workers_;
};

}  // namespace planfirst::graph
