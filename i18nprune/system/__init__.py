"""Where the tool meets the operating system: raw file descriptors, atomic file replacement,
frames on pipes and child processes' environment. Depends on no other package of i18nprune."""
