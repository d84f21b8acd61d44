"""One module per subcommand: add_parser(sub, name, help) and run(args) -> int."""
