"""The runner: where the work the apps send off the request runs (:mod:`runner.background`).

Below every app (it imports Django and nothing of ours): ``tournaments`` and ``scoring`` send
their work here, the serve command of a club's instance starts the runner thread, and its
processes (``instance.processes``) hand their work to the first one's runner.
"""
