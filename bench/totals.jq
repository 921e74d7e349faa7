# Totals of an AIPerf raw corpus, computed with jq (the neighbour that
# bench/run.sh measures, and a cross-check of specscan's totals).
#
#   jq -r -f bench/totals.jq FILE        (also works with -n)
#
# Over the profiling-phase requests that succeeded (null/absent "error", not
# cancelled) and whose metrics.speculative_decoding payload reports at least
# one step, sums what specscan reports as requests.ok,
# total_spec_decode_steps, total_accepted_draft_tokens and
# total_draft_tokens.  Every data packet is parsed with fromjson.  Prints:
#
#   requests=N steps=N accepted=N drafted=N

# The JSON objects one responses[] element carries.
def element_objects:
  select(type == "object")
  | if (.packets | type) == "array" then
      [ .packets[]
        | select(type == "object" and .name == "data")
        | .value
        | select(type == "string" and . != "" and . != "[DONE]") ]
      | join("\n")
    elif (.text | type) == "string" then .text
    else empty end
  | select(. != "")
  | (try fromjson catch empty)
  | objects;

# The spec-decode payload of a line (the last object that has one), or null.
def line_payload:
  [ (.responses // [])[]
    | element_objects
    | .metrics
    | objects
    | .speculative_decoding
    | objects ]
  | last;

def counted:
  type == "object"
  and .error == null
  and ((.metadata | objects | (.benchmark_phase // .credit_phase)) // "profiling") == "profiling"
  and ((.metadata | objects | .was_cancelled) // false) != true;

reduce ((if . == null then empty else . end), inputs) as $line
  ({requests: 0, steps: 0, accepted: 0, drafted: 0};
   if ($line | counted) then
     ($line | line_payload) as $p
     | if $p != null and (($p.num_spec_steps // 0) > 0) then
         .requests += 1
         | .steps += $p.num_spec_steps
         | .accepted += $p.num_accepted_draft_tokens
         | .drafted += $p.num_draft_tokens
       else . end
   else . end)
| "requests=\(.requests) steps=\(.steps) accepted=\(.accepted) drafted=\(.drafted)"
