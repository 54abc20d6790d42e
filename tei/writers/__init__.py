"""Writers: turn the edition model into files (TEI transcriptions, TEI editions, JSON)."""
