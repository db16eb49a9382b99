// A support desk whose one model leaf is closed: evoke's offline `local` engine answers it, so no value
// is ever minted (each field is a case of its enum, yes/no, or a span of the message).
leaf triage(s: Span) -> { kind: enum(bug, question, billing), tickets: number?, urgent: bool }

agent "Desk" {
  grants { ai.triage, tasks.create, message.send }
  at most world
  lives in channel #support

  on message {
    let t = triage(.message)
    if t.kind == bug { create_task "Bug from {.speaker}: {.message}" }
    if t.kind == billing { reply "Billing will write to you." }
  }
}
