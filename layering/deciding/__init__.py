"""Deciding the selected contracts, fresh or from the result cache.

Fresh (`fresh`), every contract is decided on the evidence now. From the cache (`cached`), a
verdict an edit cannot have changed is reused, and the others are decided fresh. The command
picks the strategy; both give the same results, byte for byte.
"""
