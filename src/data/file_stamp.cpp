#include "data/file_stamp.hpp"

#include <system_error>

namespace planfirst::data {

std::optional<FileStamp> stamp_of(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) return std::nullopt;
  FileStamp stamp;
  stamp.path = std::filesystem::absolute(file, error).string();
  stamp.size = std::filesystem::file_size(file, error);
  if (error) return std::nullopt;
  stamp.modified =
      static_cast<std::int64_t>(std::filesystem::last_write_time(file, error).time_since_epoch().count());
  if (error) return std::nullopt;
  return stamp;
}

}  // namespace planfirst::data
