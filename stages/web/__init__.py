"""The web as a provider: a SearXNG-compatible search endpoint, and guarded page reading."""
