pub mod git_server;
