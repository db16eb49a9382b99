agent "Greeter" {
  grants { message.send, tasks.create, ai.summarize }
  on someone says /^hi\b/ { say "hello {.speaker}" }
}
