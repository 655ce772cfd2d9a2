"""Mission packs: plain data in, HTML (Django templates) out, PDF bytes from WeasyPrint.

Nothing here reads the database: ``printing.services.packs`` gathers a round into the
dataclasses of ``data`` and stores the file; ``render`` lays pages out in chunks and merges them.
"""
