#include "sources/evidence_json.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::sources {
namespace {

EvidenceItem sample_item() {
  EvidenceItem item;
  item.source = "doc";
  item.id = "design.md#Billing";
  item.title = "Billing";
  item.snippet = "The billing engine ...";
  item.fields = {{"owner", "ana"}};
  item.score = 0.75;
  item.provenance = {"doc", "docs/design.md", "billing", "2026-01-02T03:04:05Z"};
  return item;
}

TEST(EvidenceJson, AnItemRoundTrips) {
  const core::Json json = to_json(sample_item());

  core::Result<EvidenceItem> read = evidence_from_json(json, "/evidence/0");

  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(to_json(*read), json);
}

TEST(EvidenceJson, AbsentOrNullTextReadsAsEmpty) {
  core::Json json = to_json(sample_item());
  json.erase("title");
  json["snippet"] = nullptr;
  json.erase("provenance");

  core::Result<EvidenceItem> read = evidence_from_json(json, "/evidence/0");

  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->title, "");
  EXPECT_EQ(read->snippet, "");
  EXPECT_EQ(read->provenance.locator, "");
  EXPECT_EQ(read->id, "design.md#Billing");
}

TEST(EvidenceJson, TextOfAnotherTypeOrANonObjectIsRefusedAtItsPointer) {
  core::Json json = to_json(sample_item());
  json["provenance"]["query"] = 7;

  core::Result<EvidenceItem> read = evidence_from_json(json, "/evidence/3");
  core::Result<EvidenceItem> list = evidence_from_json(core::Json::array(), "/evidence/4");

  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(read.error().where, "/evidence/3/provenance/query");
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().where, "/evidence/4");
}

}  // namespace
}  // namespace planfirst::sources
