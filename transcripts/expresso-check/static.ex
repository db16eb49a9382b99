leaf mood(s: Span) -> enum(calm, tense)

agent "Host" {
  grants { message.send, ai.mood }
  lives in meeting
  on meeting begins { say "hello" }
  on silence for "5m" { say "anyone?" }
}

agent "Host" {
  grants { message.send }
  on message { let m = leaf mood(.text) -> bool }
}
