// The label pass names what the question asks of its answer in the words no other pass took
// (Findings::words): analysis labels ("trend", "share") and outputs ("a line chart", "in a table"),
// the analysis kept in the contract's order so the same question gives the same bytes.
#pragma once

#include <string>
#include <vector>

#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz::extraction {

// The analysis labels whose phrases the words left hold.
void add_analysis(const LabelledPhrases& analysis, Findings& found);

// The outputs whose phrases the words left hold ("table" after the table's name asks for none);
// with none, a table for one number or for rows only, else `default_outputs`.
void add_outputs(const Question& q, const LabelledPhrases& outputs,
                 const std::vector<std::string>& default_outputs, const Phrases& count_phrases,
                 const Phrases& aggregation_words, Findings& found);

// Orders `requirements`' analysis labels as `analysis` lists them.
void order_analysis(const LabelledPhrases& analysis, Requirements& requirements);

}  // namespace planfirst::autoviz::extraction
