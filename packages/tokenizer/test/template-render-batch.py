"""Runs the reference renderer (the script given as argv[1], test-vectors/gen/template_render.py)
once per job of the JSON list on stdin, all in this one process so jinja2 is imported once.
stdout: the list of the script's outputs, in order; {"fail": "<exception>"} where the script
raised (a template jinja2 cannot compile): that job alone fails, as its own run would have.
Run with /usr/bin/python3 (python3-jinja2)."""
import io
import json
import runpy
import sys

sys.dont_write_bytecode = True


def main():
    script = sys.argv[1]
    jobs = json.load(sys.stdin)
    stdin, stdout = sys.stdin, sys.stdout
    results = []
    for job in jobs:
        sys.stdin, sys.stdout = io.StringIO(json.dumps(job)), io.StringIO()
        try:
            runpy.run_path(script, run_name="__main__")
            results.append(json.loads(sys.stdout.getvalue()))
        except Exception as e:  # noqa: BLE001 - reported per job, as a failed run of the script
            results.append({"fail": f"{type(e).__name__}: {e}"})
        finally:
            sys.stdin, sys.stdout = stdin, stdout
    json.dump(results, sys.stdout, ensure_ascii=False)


main()
