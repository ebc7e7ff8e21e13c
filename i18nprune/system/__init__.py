"""Where the tool meets the operating system: raw file descriptors and the standard streams,
atomic file replacement, frames on pipes, starting our child processes, inotify, glibc's
malloc thresholds. Depends on no other package of i18nprune."""
