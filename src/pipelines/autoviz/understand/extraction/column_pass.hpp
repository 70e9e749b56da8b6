// The column pass grounds the question's mentions of columns: each run of tokens naming a column by
// its words, stem, synonym, initial, spelling or, last, WordNet, longest first; then the ids a
// ranking keys by, and it drops the words that name the rows or a value instead. Fills
// Findings::mentions, ids and id_keys.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::core {
class Stemmer;
class WordNetSynonyms;
}  // namespace planfirst::core

namespace planfirst::autoviz {
struct ValueWords;
}  // namespace planfirst::autoviz

namespace planfirst::autoviz::extraction {

struct RankingWords;

// The words that name columns beyond their own: synonyms, joiners and units of a name, and the
// words that name no column (stopwords, outputs) or point to a key (a ranking's links and askers).
struct ColumnWords {
  const std::map<std::string, std::vector<std::string>>&
      synonyms;  // stem -> stems ("product type" -> product_category)
  const Stems& stopwords;
  const Stems& output_words;    // every output phrase's stems: "line", "pie", "table"...
  const Phrases& name_joiners;  // "problem whose id" names problem_id
  const Stems& name_units;      // inches, mph...: "sea level pressure" names sea_level_pressure_inches
  const Phrases& group_phrases;
  const Phrases& key_links;   // with, has...: "which musical has the most actors" ranks Musical_ID
  const Phrases& key_askers;  // which, what: "which staff member is assigned the most logs" ranks a key
};

// The columns the question names, in question order (ground_columns), without the words of the
// table's name or of a longer value, and without a row name a ranking counts; the things X_id
// columns identify (named_ids) and the ids a ranking keys by (add_id_keys).
void ground_mentions(const Question& q, const data::SchemaProfile& profile, const ColumnWords& words,
                     const RankingWords& ranking, const ValueWords& values,
                     const core::WordNetSynonyms* wordnet, core::Stemmer& stemmer, Findings& found);

// The words that name the table's rows: a row noun ("rows"), a word of the table's name, or the
// thing an id column identifies ("orders" beside order_id; with `identifying`, only an id whose
// values never repeat: customer_id on orders names no rows); stems.
Stems row_words(const Question& q, const data::SchemaProfile& profile, const Stems& row_nouns,
                bool identifying);

// The thing an X_id column identifies, X as stems ("musical" for Musical_ID); none for another
// column and for the key named after the table itself (account_id of accounts).
std::optional<Stems> id_thing(const Question& q, const data::SchemaProfile& profile,
                              const data::ColumnProfile& column);

// The X_name column beside X_id (`thing` X) holding as many values, which shows the same things by
// name (start_station_name beside start_station_id); else the id itself.
const data::ColumnProfile& shown_by_name(const Question& q, const data::SchemaProfile& profile,
                                         const data::ColumnProfile& id, const Stems& thing);

}  // namespace planfirst::autoviz::extraction
