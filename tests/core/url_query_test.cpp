#include "core/url_query.hpp"

#include <gtest/gtest.h>

namespace planfirst::core {
namespace {

TEST(UrlQuery, EncodesEverythingButUnreservedBytes) {
  EXPECT_EQ(percent_encode("group/app"), "group%2Fapp");
  EXPECT_EQ(percent_encode("State: {In Progress} #Unresolved"),
            "State%3A%20%7BIn%20Progress%7D%20%23Unresolved");
  EXPECT_EQ(percent_encode("a-b_c.d~e"), "a-b_c.d~e");
  EXPECT_EQ(percent_encode("\xc3\xa9"), "%C3%A9");
}

TEST(UrlQuery, JoinsEncodedPairsInOrder) {
  EXPECT_EQ(query_string({}), "");
  EXPECT_EQ(query_string({{"since", "2024-01-01T00:00:00Z"}, {"$top", "50"}}),
            "?since=2024-01-01T00%3A00%3A00Z&%24top=50");
}

}  // namespace
}  // namespace planfirst::core
