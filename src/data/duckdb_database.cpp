#include "data/duckdb_database.hpp"

#include <duckdb.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

namespace planfirst::data {
namespace {

using core::Error;
using core::Result;

// Owns one DuckDB handle of pointer type T and destroys it with Destroy.
template <typename T, void (*Destroy)(T*)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T handle) : handle_(handle) {}
  ~Handle() {
    if (handle_ != nullptr) Destroy(&handle_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  T get() const { return handle_; }
  T* out() { return &handle_; }

 private:
  T handle_ = nullptr;
};

using LogicalType = Handle<duckdb_logical_type, duckdb_destroy_logical_type>;
using PreparedStatement = Handle<duckdb_prepared_statement, duckdb_destroy_prepare>;
using ExtractedStatements = Handle<duckdb_extracted_statements, duckdb_destroy_extracted>;
using PendingResult = Handle<duckdb_pending_result, duckdb_destroy_pending>;
using DataChunk = Handle<duckdb_data_chunk, duckdb_destroy_data_chunk>;
using Config = Handle<duckdb_config, duckdb_destroy_config>;

// A duckdb_result, which must be destroyed even when the call that filled it failed.
class QueryOutcome {
 public:
  QueryOutcome() = default;
  ~QueryOutcome() { duckdb_destroy_result(&result_); }
  QueryOutcome(const QueryOutcome&) = delete;
  QueryOutcome& operator=(const QueryOutcome&) = delete;

  duckdb_result* out() { return &result_; }
  duckdb_result& get() { return result_; }

 private:
  duckdb_result result_{};
};

// A string DuckDB allocated, released with duckdb_free.
class DuckString {
 public:
  explicit DuckString(char* text) : text_(text) {}
  ~DuckString() {
    if (text_ != nullptr) duckdb_free(text_);
  }
  DuckString(const DuckString&) = delete;
  DuckString& operator=(const DuckString&) = delete;
  std::string str() const { return text_ == nullptr ? std::string() : std::string(text_); }

 private:
  char* text_;
};

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

Error error_from(duckdb_error_type type, std::string message) {
  message = trimmed(std::move(message));
  // Errors raised while preparing carry no type, only the message's prefix.
  if (type == DUCKDB_ERROR_INVALID) {
    if (message.starts_with("Catalog Error")) type = DUCKDB_ERROR_CATALOG;
    if (message.starts_with("IO Error")) type = DUCKDB_ERROR_IO;
    if (message.starts_with("INTERNAL Error")) type = DUCKDB_ERROR_INTERNAL;
  }
  if (type == DUCKDB_ERROR_CATALOG && message.find("does not exist") != std::string::npos) {
    return core::not_found(std::move(message));
  }
  if (message.find("read-only") != std::string::npos) return core::failed_precondition(std::move(message));
  switch (type) {
    case DUCKDB_ERROR_INTERRUPT:
    case DUCKDB_ERROR_CONNECTION:
    case DUCKDB_ERROR_NETWORK:
    case DUCKDB_ERROR_HTTP:
    case DUCKDB_ERROR_OUT_OF_MEMORY: return core::unavailable(std::move(message));
    case DUCKDB_ERROR_IO:
      if (message.find("No files found") != std::string::npos) return core::not_found(std::move(message));
      return core::unavailable(std::move(message));
    case DUCKDB_ERROR_INTERNAL:
    case DUCKDB_ERROR_FATAL: return core::internal_error(std::move(message));
    default: return core::invalid_argument(std::move(message));
  }
}

Error error_from(duckdb_result& result) {
  const char* message = duckdb_result_error(&result);
  return error_from(duckdb_result_error_type(&result), message == nullptr ? "DuckDB error" : message);
}

// ---- reading vectors -------------------------------------------------------------------------

std::string two_digits(int value) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "%02d", value);
  return buffer;
}

std::string format_date(duckdb_date date) {
  if (!duckdb_is_finite_date(date)) return date.days > 0 ? "infinity" : "-infinity";
  const duckdb_date_struct parts = duckdb_from_date(date);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", static_cast<int>(parts.year),
                static_cast<int>(parts.month), static_cast<int>(parts.day));
  return buffer;
}

std::string format_time(duckdb_time_struct time) {
  std::string text = two_digits(time.hour) + ":" + two_digits(time.min) + ":" + two_digits(time.sec);
  if (time.micros != 0) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, ".%06d", static_cast<int>(time.micros));
    std::string fraction = buffer;
    while (fraction.back() == '0') fraction.pop_back();
    text += fraction;
  }
  return text;
}

std::string format_timestamp(std::int64_t micros) {
  const duckdb_timestamp ts{micros};
  if (!duckdb_is_finite_timestamp(ts)) return micros > 0 ? "infinity" : "-infinity";
  const duckdb_timestamp_struct parts = duckdb_from_timestamp(ts);
  return format_date(duckdb_to_date(parts.date)) + " " + format_time(parts.time);
}

std::string format_interval(duckdb_interval interval) {
  std::string text;
  auto add = [&text](std::int64_t amount, const char* unit) {
    if (amount == 0) return;
    if (!text.empty()) text += ' ';
    text += std::to_string(amount) + ' ' + unit + (amount == 1 || amount == -1 ? "" : "s");
  };
  add(interval.months / 12, "year");
  add(interval.months % 12, "month");
  add(interval.days, "day");
  if (interval.micros != 0 || text.empty()) {
    std::int64_t micros = interval.micros;
    if (!text.empty()) text += ' ';
    if (micros < 0) {
      text += '-';
      micros = -micros;
    }
    const std::int64_t seconds = micros / 1000000;
    duckdb_time_struct time{};
    time.sec = static_cast<std::int8_t>(seconds % 60);
    time.min = static_cast<std::int8_t>((seconds / 60) % 60);
    time.micros = static_cast<std::int32_t>(micros % 1000000);
    text += std::to_string(seconds / 3600) + format_time(time).substr(2);
  }
  return text;
}

std::string format_uuid(duckdb_hugeint value) {
  const std::uint64_t upper = static_cast<std::uint64_t>(value.upper) ^ (std::uint64_t{1} << 63);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016" PRIx64 "%016" PRIx64, upper, value.lower);
  const std::string h = hex;
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" +
         h.substr(20);
}

std::string format_blob(std::string_view bytes) {
  std::string text;
  for (unsigned char c : bytes) {
    if (c >= 32 && c < 127 && c != '\\') {
      text += static_cast<char>(c);
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned>(c));
      text += buffer;
    }
  }
  return text;
}

Value hugeint_value(duckdb_hugeint value) {
  const bool fits = (value.upper == 0 && value.lower <= static_cast<std::uint64_t>(INT64_MAX)) ||
                    (value.upper == -1 && value.lower > static_cast<std::uint64_t>(INT64_MAX));
  if (fits) return static_cast<std::int64_t>(value.lower);
  return duckdb_hugeint_to_double(value);
}

double decimal_value(const void* data, idx_t row, duckdb_logical_type type) {
  duckdb_decimal decimal{};
  decimal.width = duckdb_decimal_width(type);
  decimal.scale = duckdb_decimal_scale(type);
  std::int64_t small = 0;
  switch (duckdb_decimal_internal_type(type)) {
    case DUCKDB_TYPE_SMALLINT: small = static_cast<const std::int16_t*>(data)[row]; break;
    case DUCKDB_TYPE_INTEGER: small = static_cast<const std::int32_t*>(data)[row]; break;
    case DUCKDB_TYPE_BIGINT: small = static_cast<const std::int64_t*>(data)[row]; break;
    default:
      decimal.value = static_cast<const duckdb_hugeint*>(data)[row];
      return duckdb_decimal_to_double(decimal);
  }
  decimal.value.lower = static_cast<std::uint64_t>(small);
  decimal.value.upper = small < 0 ? -1 : 0;
  return duckdb_decimal_to_double(decimal);
}

std::string_view string_at(void* data, idx_t row) {
  auto* strings = static_cast<duckdb_string_t*>(data);
  return {duckdb_string_t_data(&strings[row]), duckdb_string_t_length(strings[row])};
}

bool is_valid(duckdb_vector vector, idx_t row) {
  const std::uint64_t* validity = duckdb_vector_get_validity(vector);
  return validity == nullptr || duckdb_validity_row_is_valid(const_cast<std::uint64_t*>(validity), row);
}

std::string quoted_in_nested(const Value& value) {
  if (value.kind() != Value::Kind::kText) return value.to_string();
  std::string text = "'";
  for (char c : value.as_text()) {
    text += c;
    if (c == '\'') text += '\'';
  }
  return text + "'";
}

Value cell(duckdb_vector vector, duckdb_logical_type type, idx_t row);

// The text form of a nested value (LIST, ARRAY, STRUCT, MAP, UNION): [1, 2], {'a': 1}, {'k'=1}.
std::string nested_text(duckdb_vector vector, duckdb_logical_type type, idx_t row) {
  void* data = duckdb_vector_get_data(vector);
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_LIST: {
      const duckdb_list_entry entry = static_cast<duckdb_list_entry*>(data)[row];
      duckdb_vector child = duckdb_list_vector_get_child(vector);
      LogicalType child_type(duckdb_list_type_child_type(type));
      std::string text = "[";
      for (idx_t i = 0; i < entry.length; ++i) {
        if (i > 0) text += ", ";
        text += quoted_in_nested(cell(child, child_type.get(), entry.offset + i));
      }
      return text + "]";
    }
    case DUCKDB_TYPE_ARRAY: {
      const idx_t size = duckdb_array_type_array_size(type);
      duckdb_vector child = duckdb_array_vector_get_child(vector);
      LogicalType child_type(duckdb_array_type_child_type(type));
      std::string text = "[";
      for (idx_t i = 0; i < size; ++i) {
        if (i > 0) text += ", ";
        text += quoted_in_nested(cell(child, child_type.get(), row * size + i));
      }
      return text + "]";
    }
    case DUCKDB_TYPE_STRUCT: {
      std::string text = "{";
      const idx_t count = duckdb_struct_type_child_count(type);
      for (idx_t i = 0; i < count; ++i) {
        if (i > 0) text += ", ";
        DuckString name(duckdb_struct_type_child_name(type, i));
        LogicalType child_type(duckdb_struct_type_child_type(type, i));
        text += "'" + name.str() + "': ";
        text += quoted_in_nested(cell(duckdb_struct_vector_get_child(vector, i), child_type.get(), row));
      }
      return text + "}";
    }
    case DUCKDB_TYPE_MAP: {
      const duckdb_list_entry entry = static_cast<duckdb_list_entry*>(data)[row];
      duckdb_vector entries = duckdb_list_vector_get_child(vector);
      LogicalType key_type(duckdb_map_type_key_type(type));
      LogicalType value_type(duckdb_map_type_value_type(type));
      std::string text = "{";
      for (idx_t i = 0; i < entry.length; ++i) {
        if (i > 0) text += ", ";
        text += quoted_in_nested(
            cell(duckdb_struct_vector_get_child(entries, 0), key_type.get(), entry.offset + i));
        text += "=";
        text += quoted_in_nested(
            cell(duckdb_struct_vector_get_child(entries, 1), value_type.get(), entry.offset + i));
      }
      return text + "}";
    }
    case DUCKDB_TYPE_UNION: {
      duckdb_vector tags = duckdb_struct_vector_get_child(vector, 0);
      const idx_t tag = static_cast<std::uint8_t*>(duckdb_vector_get_data(tags))[row];
      LogicalType member_type(duckdb_union_type_member_type(type, tag));
      return cell(duckdb_struct_vector_get_child(vector, tag + 1), member_type.get(), row).to_string();
    }
    default: return {};
  }
}

// The value at `row` of `vector`, whose logical type is `type`. Types were checked by
// unsupported_type() before any cell is read.
Value cell(duckdb_vector vector, duckdb_logical_type type, idx_t row) {
  if (!is_valid(vector, row)) return {};
  void* data = duckdb_vector_get_data(vector);
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_BOOLEAN: return static_cast<bool*>(data)[row];
    case DUCKDB_TYPE_TINYINT: return static_cast<std::int8_t*>(data)[row];
    case DUCKDB_TYPE_SMALLINT: return static_cast<std::int16_t*>(data)[row];
    case DUCKDB_TYPE_INTEGER: return static_cast<std::int32_t*>(data)[row];
    case DUCKDB_TYPE_BIGINT: return static_cast<std::int64_t*>(data)[row];
    case DUCKDB_TYPE_UTINYINT: return static_cast<std::uint8_t*>(data)[row];
    case DUCKDB_TYPE_USMALLINT: return static_cast<std::uint16_t*>(data)[row];
    case DUCKDB_TYPE_UINTEGER: return static_cast<std::uint32_t*>(data)[row];
    case DUCKDB_TYPE_UBIGINT: {
      const std::uint64_t value = static_cast<std::uint64_t*>(data)[row];
      if (value <= static_cast<std::uint64_t>(INT64_MAX)) return static_cast<std::int64_t>(value);
      return static_cast<double>(value);
    }
    case DUCKDB_TYPE_HUGEINT: return hugeint_value(static_cast<duckdb_hugeint*>(data)[row]);
    case DUCKDB_TYPE_UHUGEINT: {
      const duckdb_uhugeint value = static_cast<duckdb_uhugeint*>(data)[row];
      if (value.upper == 0 && value.lower <= static_cast<std::uint64_t>(INT64_MAX)) {
        return static_cast<std::int64_t>(value.lower);
      }
      return duckdb_uhugeint_to_double(value);
    }
    case DUCKDB_TYPE_FLOAT: return static_cast<double>(static_cast<float*>(data)[row]);
    case DUCKDB_TYPE_DOUBLE: return static_cast<double*>(data)[row];
    case DUCKDB_TYPE_DECIMAL: return decimal_value(data, row, type);
    case DUCKDB_TYPE_VARCHAR: return string_at(data, row);
    case DUCKDB_TYPE_BLOB: return format_blob(string_at(data, row));
    case DUCKDB_TYPE_DATE: return format_date(static_cast<duckdb_date*>(data)[row]);
    case DUCKDB_TYPE_TIMESTAMP: return format_timestamp(static_cast<duckdb_timestamp*>(data)[row].micros);
    case DUCKDB_TYPE_TIMESTAMP_TZ:
      return format_timestamp(static_cast<duckdb_timestamp*>(data)[row].micros) + "+00";
    case DUCKDB_TYPE_TIMESTAMP_S: {
      const std::int64_t seconds = static_cast<duckdb_timestamp_s*>(data)[row].seconds;
      if (!duckdb_is_finite_timestamp_s(duckdb_timestamp_s{seconds}))
        return seconds > 0 ? "infinity" : "-infinity";
      return format_timestamp(seconds * 1000000);
    }
    case DUCKDB_TYPE_TIMESTAMP_MS: {
      const std::int64_t millis = static_cast<duckdb_timestamp_ms*>(data)[row].millis;
      if (!duckdb_is_finite_timestamp_ms(duckdb_timestamp_ms{millis}))
        return millis > 0 ? "infinity" : "-infinity";
      return format_timestamp(millis * 1000);
    }
    case DUCKDB_TYPE_TIMESTAMP_NS: {
      const std::int64_t nanos = static_cast<duckdb_timestamp_ns*>(data)[row].nanos;
      if (!duckdb_is_finite_timestamp_ns(duckdb_timestamp_ns{nanos}))
        return nanos > 0 ? "infinity" : "-infinity";
      return format_timestamp(nanos / 1000);
    }
    case DUCKDB_TYPE_TIME: return format_time(duckdb_from_time(static_cast<duckdb_time*>(data)[row]));
    case DUCKDB_TYPE_TIME_NS:
      return format_time(duckdb_from_time(duckdb_time{static_cast<duckdb_time_ns*>(data)[row].nanos / 1000}));
    case DUCKDB_TYPE_TIME_TZ: {
      const duckdb_time_tz_struct parts = duckdb_from_time_tz(static_cast<duckdb_time_tz*>(data)[row]);
      const int offset = parts.offset;
      const int hours = (offset < 0 ? -offset : offset) / 3600;
      return format_time(parts.time) + (offset < 0 ? "-" : "+") + two_digits(hours);
    }
    case DUCKDB_TYPE_INTERVAL: return format_interval(static_cast<duckdb_interval*>(data)[row]);
    case DUCKDB_TYPE_UUID: return format_uuid(static_cast<duckdb_hugeint*>(data)[row]);
    case DUCKDB_TYPE_ENUM: {
      idx_t index = 0;
      switch (duckdb_enum_internal_type(type)) {
        case DUCKDB_TYPE_UTINYINT: index = static_cast<std::uint8_t*>(data)[row]; break;
        case DUCKDB_TYPE_USMALLINT: index = static_cast<std::uint16_t*>(data)[row]; break;
        default: index = static_cast<std::uint32_t*>(data)[row]; break;
      }
      return DuckString(duckdb_enum_dictionary_value(type, index)).str();
    }
    case DUCKDB_TYPE_LIST:
    case DUCKDB_TYPE_ARRAY:
    case DUCKDB_TYPE_STRUCT:
    case DUCKDB_TYPE_MAP:
    case DUCKDB_TYPE_UNION: return nested_text(vector, type, row);
    default: return {};
  }
}

ColumnType column_type_of(duckdb_type id) {
  switch (id) {
    case DUCKDB_TYPE_BOOLEAN: return ColumnType::kBoolean;
    case DUCKDB_TYPE_TINYINT:
    case DUCKDB_TYPE_SMALLINT:
    case DUCKDB_TYPE_INTEGER:
    case DUCKDB_TYPE_BIGINT:
    case DUCKDB_TYPE_UTINYINT:
    case DUCKDB_TYPE_USMALLINT:
    case DUCKDB_TYPE_UINTEGER:
    case DUCKDB_TYPE_UBIGINT:
    case DUCKDB_TYPE_HUGEINT:
    case DUCKDB_TYPE_UHUGEINT: return ColumnType::kInteger;
    case DUCKDB_TYPE_FLOAT:
    case DUCKDB_TYPE_DOUBLE:
    case DUCKDB_TYPE_DECIMAL: return ColumnType::kDouble;
    case DUCKDB_TYPE_VARCHAR:
    case DUCKDB_TYPE_ENUM: return ColumnType::kText;
    case DUCKDB_TYPE_DATE: return ColumnType::kDate;
    case DUCKDB_TYPE_TIMESTAMP:
    case DUCKDB_TYPE_TIMESTAMP_S:
    case DUCKDB_TYPE_TIMESTAMP_MS:
    case DUCKDB_TYPE_TIMESTAMP_NS:
    case DUCKDB_TYPE_TIMESTAMP_TZ: return ColumnType::kTimestamp;
    default: return ColumnType::kOther;
  }
}

std::string type_name(duckdb_logical_type type) {
  {
    DuckString alias(duckdb_logical_type_get_alias(type));
    if (std::string name = alias.str(); !name.empty()) return name;
  }
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_BOOLEAN: return "BOOLEAN";
    case DUCKDB_TYPE_TINYINT: return "TINYINT";
    case DUCKDB_TYPE_SMALLINT: return "SMALLINT";
    case DUCKDB_TYPE_INTEGER: return "INTEGER";
    case DUCKDB_TYPE_BIGINT: return "BIGINT";
    case DUCKDB_TYPE_UTINYINT: return "UTINYINT";
    case DUCKDB_TYPE_USMALLINT: return "USMALLINT";
    case DUCKDB_TYPE_UINTEGER: return "UINTEGER";
    case DUCKDB_TYPE_UBIGINT: return "UBIGINT";
    case DUCKDB_TYPE_HUGEINT: return "HUGEINT";
    case DUCKDB_TYPE_UHUGEINT: return "UHUGEINT";
    case DUCKDB_TYPE_FLOAT: return "FLOAT";
    case DUCKDB_TYPE_DOUBLE: return "DOUBLE";
    case DUCKDB_TYPE_DECIMAL:
      return "DECIMAL(" + std::to_string(duckdb_decimal_width(type)) + "," +
             std::to_string(duckdb_decimal_scale(type)) + ")";
    case DUCKDB_TYPE_VARCHAR: return "VARCHAR";
    case DUCKDB_TYPE_BLOB: return "BLOB";
    case DUCKDB_TYPE_DATE: return "DATE";
    case DUCKDB_TYPE_TIME: return "TIME";
    case DUCKDB_TYPE_TIME_NS: return "TIME_NS";
    case DUCKDB_TYPE_TIME_TZ: return "TIME WITH TIME ZONE";
    case DUCKDB_TYPE_TIMESTAMP: return "TIMESTAMP";
    case DUCKDB_TYPE_TIMESTAMP_S: return "TIMESTAMP_S";
    case DUCKDB_TYPE_TIMESTAMP_MS: return "TIMESTAMP_MS";
    case DUCKDB_TYPE_TIMESTAMP_NS: return "TIMESTAMP_NS";
    case DUCKDB_TYPE_TIMESTAMP_TZ: return "TIMESTAMP WITH TIME ZONE";
    case DUCKDB_TYPE_INTERVAL: return "INTERVAL";
    case DUCKDB_TYPE_UUID: return "UUID";
    case DUCKDB_TYPE_ENUM: return "ENUM";
    case DUCKDB_TYPE_BIT: return "BIT";
    case DUCKDB_TYPE_BIGNUM: return "BIGNUM";
    case DUCKDB_TYPE_SQLNULL: return "NULL";
    case DUCKDB_TYPE_LIST: {
      LogicalType child(duckdb_list_type_child_type(type));
      return type_name(child.get()) + "[]";
    }
    case DUCKDB_TYPE_ARRAY: {
      LogicalType child(duckdb_array_type_child_type(type));
      return type_name(child.get()) + "[" + std::to_string(duckdb_array_type_array_size(type)) + "]";
    }
    case DUCKDB_TYPE_MAP: {
      LogicalType key(duckdb_map_type_key_type(type));
      LogicalType value(duckdb_map_type_value_type(type));
      return "MAP(" + type_name(key.get()) + ", " + type_name(value.get()) + ")";
    }
    case DUCKDB_TYPE_STRUCT:
    case DUCKDB_TYPE_UNION: {
      const bool is_struct = duckdb_get_type_id(type) == DUCKDB_TYPE_STRUCT;
      const idx_t count =
          is_struct ? duckdb_struct_type_child_count(type) : duckdb_union_type_member_count(type);
      std::string text = is_struct ? "STRUCT(" : "UNION(";
      for (idx_t i = 0; i < count; ++i) {
        DuckString name(is_struct ? duckdb_struct_type_child_name(type, i)
                                  : duckdb_union_type_member_name(type, i));
        LogicalType child(is_struct ? duckdb_struct_type_child_type(type, i)
                                    : duckdb_union_type_member_type(type, i));
        text += (i > 0 ? ", " : "") + name.str() + " " + type_name(child.get());
      }
      return text + ")";
    }
    default: return "UNKNOWN";
  }
}

// The name of the first type inside `type` that cell() cannot read, or empty.
std::string unsupported_type(duckdb_logical_type type) {
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_BIT:
    case DUCKDB_TYPE_BIGNUM:
    case DUCKDB_TYPE_INVALID:
    case DUCKDB_TYPE_ANY:
    case DUCKDB_TYPE_STRING_LITERAL:
    case DUCKDB_TYPE_INTEGER_LITERAL: return type_name(type);
    case DUCKDB_TYPE_LIST: {
      LogicalType child(duckdb_list_type_child_type(type));
      return unsupported_type(child.get());
    }
    case DUCKDB_TYPE_ARRAY: {
      LogicalType child(duckdb_array_type_child_type(type));
      return unsupported_type(child.get());
    }
    case DUCKDB_TYPE_MAP: {
      LogicalType key(duckdb_map_type_key_type(type));
      LogicalType value(duckdb_map_type_value_type(type));
      std::string found = unsupported_type(key.get());
      return found.empty() ? unsupported_type(value.get()) : found;
    }
    case DUCKDB_TYPE_STRUCT:
      for (idx_t i = 0; i < duckdb_struct_type_child_count(type); ++i) {
        LogicalType child(duckdb_struct_type_child_type(type, i));
        if (std::string found = unsupported_type(child.get()); !found.empty()) return found;
      }
      return {};
    case DUCKDB_TYPE_UNION:
      for (idx_t i = 0; i < duckdb_union_type_member_count(type); ++i) {
        LogicalType child(duckdb_union_type_member_type(type, i));
        if (std::string found = unsupported_type(child.get()); !found.empty()) return found;
      }
      return {};
    default: return {};
  }
}

Result<QueryResult> read_result(duckdb_result& result) {
  const idx_t column_count = duckdb_column_count(&result);
  std::vector<Column> columns(column_count);
  std::vector<std::unique_ptr<LogicalType>> types;
  for (idx_t c = 0; c < column_count; ++c) {
    types.push_back(std::make_unique<LogicalType>(duckdb_column_logical_type(&result, c)));
    const char* name = duckdb_column_name(&result, c);
    columns[c].name = name == nullptr ? "" : name;
    columns[c].type = column_type_of(duckdb_get_type_id(types[c]->get()));
    columns[c].sql_type = type_name(types[c]->get());
    if (std::string found = unsupported_type(types[c]->get()); !found.empty()) {
      return core::invalid_argument("column \"" + columns[c].name + "\" has type " + found +
                                    ", which planfirst cannot read; cast it to VARCHAR in the query");
    }
  }
  while (true) {
    DataChunk chunk(duckdb_fetch_chunk(result));
    if (chunk.get() == nullptr) break;
    const idx_t size = duckdb_data_chunk_get_size(chunk.get());
    if (size == 0) break;
    for (idx_t c = 0; c < column_count; ++c) {
      duckdb_vector vector = duckdb_data_chunk_get_vector(chunk.get(), c);
      std::vector<Value>& values = columns[c].values;
      values.reserve(values.size() + size);
      for (idx_t row = 0; row < size; ++row) values.push_back(cell(vector, types[c]->get(), row));
    }
  }
  return QueryResult(std::move(columns));
}

Result<void> bind(duckdb_prepared_statement statement, const std::vector<Value>& params) {
  const idx_t expected = duckdb_nparams(statement);
  if (expected != params.size()) {
    return core::invalid_argument("the statement has " + std::to_string(expected) + " parameter(s) but " +
                                  std::to_string(params.size()) + " value(s) were given");
  }
  for (idx_t i = 0; i < params.size(); ++i) {
    const Value& value = params[i];
    const idx_t index = i + 1;
    duckdb_state state = DuckDBSuccess;
    switch (value.kind()) {
      case Value::Kind::kNull: state = duckdb_bind_null(statement, index); break;
      case Value::Kind::kBool: state = duckdb_bind_boolean(statement, index, value.as_bool()); break;
      case Value::Kind::kInt: state = duckdb_bind_int64(statement, index, value.as_int()); break;
      case Value::Kind::kDouble: state = duckdb_bind_double(statement, index, value.as_double()); break;
      case Value::Kind::kText:
        state = duckdb_bind_varchar_length(statement, index, value.as_text().data(), value.as_text().size());
        break;
    }
    if (state == DuckDBError) {
      return core::invalid_argument("cannot bind parameter " + std::to_string(index) + " (" +
                                    std::string(to_string(value.kind())) + ")");
    }
  }
  return core::ok();
}

}  // namespace

struct DuckDbDatabase::Handles {
  duckdb_database database = nullptr;
  duckdb_connection connection = nullptr;
  std::string path;
  DatabaseOptions options;

  Handles() = default;
  Handles(const Handles&) = delete;
  Handles& operator=(const Handles&) = delete;
  ~Handles() {
    if (connection != nullptr) duckdb_disconnect(&connection);
    if (database != nullptr) duckdb_close(&database);
  }

  // Runs a prepared statement, interrupting it when the statement timeout passes.
  Result<QueryResult> run(duckdb_prepared_statement statement) {
    QueryOutcome outcome;
    if (options.statement_timeout.count() <= 0) {
      if (duckdb_execute_prepared(statement, outcome.out()) == DuckDBError) return error_from(outcome.get());
      return read_result(outcome.get());
    }
    PendingResult pending;
    if (duckdb_pending_prepared(statement, pending.out()) == DuckDBError) {
      const char* message = duckdb_pending_error(pending.get());
      return error_from(DUCKDB_ERROR_INVALID, message == nullptr ? "DuckDB error" : message);
    }
    const auto deadline = std::chrono::steady_clock::now() + options.statement_timeout;
    bool interrupted = false;
    while (true) {
      const duckdb_pending_state state = duckdb_pending_execute_task(pending.get());
      if (state == DUCKDB_PENDING_RESULT_READY || state == DUCKDB_PENDING_ERROR) break;
      if (!interrupted && std::chrono::steady_clock::now() >= deadline) {
        duckdb_interrupt(connection);
        interrupted = true;
      }
      if (state == DUCKDB_PENDING_NO_TASKS_AVAILABLE) std::this_thread::yield();
    }
    if (duckdb_execute_pending(pending.get(), outcome.out()) == DuckDBError) {
      if (interrupted) {
        return core::unavailable("statement timeout: DuckDB interrupted the statement after " +
                                 std::to_string(options.statement_timeout.count()) + " ms");
      }
      return error_from(outcome.get());
    }
    return read_result(outcome.get());
  }
};

DuckDbDatabase::DuckDbDatabase(std::unique_ptr<Handles> handles) : handles_(std::move(handles)) {}
DuckDbDatabase::~DuckDbDatabase() = default;

const std::string& DuckDbDatabase::path() const {
  return handles_->path;
}

Result<std::unique_ptr<DuckDbDatabase>> DuckDbDatabase::open(std::string_view path,
                                                             const DatabaseOptions& options) {
  auto handles = std::make_unique<Handles>();
  handles->path = path.empty() ? ":memory:" : std::string(path);
  handles->options = options;
  const bool in_memory = handles->path == ":memory:";
  if (options.read_only && in_memory) {
    return core::invalid_argument("a read-only DuckDB database needs a file, not :memory:");
  }
  std::error_code ec;
  if (options.read_only && !std::filesystem::exists(handles->path, ec)) {
    return core::not_found("DuckDB database file not found: " + handles->path, handles->path);
  }

  Config config;
  if (duckdb_create_config(config.out()) == DuckDBError)
    return core::internal_error("cannot create a DuckDB config");
  duckdb_set_config(config.get(), "autoinstall_known_extensions", "false");
  duckdb_set_config(config.get(), "autoload_known_extensions", "false");
  if (options.read_only) duckdb_set_config(config.get(), "access_mode", "READ_ONLY");

  char* open_error = nullptr;
  const duckdb_state state = duckdb_open_ext(in_memory ? nullptr : handles->path.c_str(), &handles->database,
                                             config.get(), &open_error);
  if (state == DuckDBError) {
    const std::string message = open_error == nullptr ? "unknown error" : trimmed(open_error);
    if (open_error != nullptr) duckdb_free(open_error);
    handles->database = nullptr;
    // A file that is no DuckDB database, or one of a storage version this build cannot read, is the
    // input at fault; anything else (a lock another process holds) may pass.
    const bool unreadable = message.find("not a valid DuckDB database file") != std::string::npos ||
                            message.find("with version number") != std::string::npos;
    std::string text = "cannot open DuckDB database " + handles->path + ": " + message;
    return unreadable ? core::invalid_argument(std::move(text), handles->path)
                      : core::unavailable(std::move(text), handles->path);
  }
  if (duckdb_connect(handles->database, &handles->connection) == DuckDBError) {
    handles->connection = nullptr;
    return core::unavailable("cannot connect to DuckDB database " + handles->path, handles->path);
  }
  return std::unique_ptr<DuckDbDatabase>(new DuckDbDatabase(std::move(handles)));
}

Result<QueryResult> DuckDbDatabase::query(std::string_view sql, const std::vector<Value>& params) {
  const std::string text(sql);
  ExtractedStatements extracted;
  const idx_t count = duckdb_extract_statements(handles_->connection, text.c_str(), extracted.out());
  if (count == 0) {
    const char* message = duckdb_extract_statements_error(extracted.get());
    return core::invalid_argument(message == nullptr ? "no statement to run" : trimmed(message));
  }
  if (count > 1) {
    return core::invalid_argument("query() runs one statement, got " + std::to_string(count) +
                                  "; use exec() for scripts");
  }
  PreparedStatement statement;
  if (duckdb_prepare_extracted_statement(handles_->connection, extracted.get(), 0, statement.out()) ==
      DuckDBError) {
    const char* message = duckdb_prepare_error(statement.get());
    return error_from(DUCKDB_ERROR_INVALID, message == nullptr ? "cannot prepare the statement" : message);
  }
  if (Result<void> bound = bind(statement.get(), params); !bound) return bound.error();
  return handles_->run(statement.get());
}

Result<void> DuckDbDatabase::exec(std::string_view sql) {
  const std::string text(sql);
  ExtractedStatements extracted;
  const idx_t count = duckdb_extract_statements(handles_->connection, text.c_str(), extracted.out());
  if (count == 0) {
    const char* message = duckdb_extract_statements_error(extracted.get());
    if (message == nullptr) return core::ok();  // only whitespace or comments
    return core::invalid_argument(trimmed(message));
  }
  for (idx_t i = 0; i < count; ++i) {
    PreparedStatement statement;
    if (duckdb_prepare_extracted_statement(handles_->connection, extracted.get(), i, statement.out()) ==
        DuckDBError) {
      const char* message = duckdb_prepare_error(statement.get());
      return error_from(DUCKDB_ERROR_INVALID, message == nullptr ? "cannot prepare the statement" : message);
    }
    if (Result<QueryResult> ran = handles_->run(statement.get()); !ran) return ran.error();
  }
  return core::ok();
}

Result<core::Json> DuckDbDatabase::explain_json(std::string_view sql, bool analyze) {
  const std::string prefix = analyze ? "EXPLAIN (ANALYZE, FORMAT JSON) " : "EXPLAIN (FORMAT JSON) ";
  Result<QueryResult> result = query(prefix + std::string(sql));
  if (!result) return result.error();
  const Column* plan = result->find_column("explain_value");
  if (plan == nullptr || plan->values.empty() || plan->values.front().kind() != Value::Kind::kText) {
    return core::internal_error("DuckDB returned no JSON plan");
  }
  core::Json json = core::Json::parse(plan->values.front().as_text(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return core::internal_error("DuckDB returned a plan that is not JSON");
  return json;
}

Result<std::vector<std::string>> DuckDbDatabase::table_names() {
  Result<QueryResult> result = query(
      "SELECT table_name FROM information_schema.tables "
      "WHERE table_catalog = current_database() AND table_schema = current_schema() ORDER BY table_name");
  if (!result) return result.error();
  std::vector<std::string> names;
  for (const Value& value : result->column(0).values) names.push_back(value.to_string());
  return names;
}

}  // namespace planfirst::data
