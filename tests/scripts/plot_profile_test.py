#!/usr/bin/python3
"""scripts/plot_profile.py's heatmap on a 24-cluster profile: 240 units
become one row per unit kind and one per cluster (a picture people can
read), each row the mean of its units' busy fractions; with few units, a
row per unit. And its task graph: the operations inside their tasks.

    tests/scripts/plot_profile_test.py SOURCE_DIR SIM [unittest args]
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE, SIM = None, None


class Heatmap(unittest.TestCase):
    def profile(self, tmp, *args):
        path = os.path.join(tmp, "p.json")
        subprocess.run([SIM, "profile", "-q", *args, "-o", path], cwd=SOURCE, check=True)
        with open(path) as f:
            return json.load(f)

    def test_many_units_become_kinds_and_clusters(self):
        sys.path.insert(0, os.path.join(SOURCE, "scripts"))
        import plot_profile
        with tempfile.TemporaryDirectory() as tmp:
            p = self.profile(tmp, "--config", "configs/ascend_910b2.json", "models/resnet_block.pto")
            self.assertEqual(len(p["units"]), 240)
            labels, rows, kinds = plot_profile.heatmap_rows(p)
            self.assertEqual(kinds, 6)  # dma, cube_dma, cube, vector_load, vector, vector_store
            self.assertEqual(len(labels), 6 + 24)
            self.assertEqual(labels[0], "dma (all 48)")
            self.assertEqual(labels[6], "cluster0 (its 10 units)")
            # A cluster's row is the mean of its units' rows.
            mine = [i for i, u in enumerate(p["units"]) if u.split(".")[0] == "cluster5"]
            for b in range(len(rows[0])):
                self.assertAlmostEqual(rows[6 + 5][b], sum(p["heatmap"][i][b] for i in mine) / len(mine))
            out = os.path.join(tmp, "plots")
            subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "plot_profile.py"),
                            os.path.join(tmp, "p.json"), "-o", out], check=True, capture_output=True)
            import matplotlib.image
            height = matplotlib.image.imread(os.path.join(out, "heatmap.png")).shape[0]
            self.assertLess(height, 1400)  # 240 rows of units were 5,973 px

    def test_few_units_keep_a_row_each(self):
        sys.path.insert(0, os.path.join(SOURCE, "scripts"))
        import plot_profile
        with tempfile.TemporaryDirectory() as tmp:
            p = self.profile(tmp, "models/gemm_256.pto")
            labels, rows, kinds = plot_profile.heatmap_rows(p)
            self.assertEqual((labels, kinds), (p["units"], 0))



class TaskGraph(unittest.TestCase):
    def test_tasks_hold_their_operations(self):
        """models/attention.pto: the profile's operations name their inputs,
        and the graph puts each task's operations in a box of its own, with
        an edge for each input."""
        sys.path.insert(0, os.path.join(SOURCE, "scripts"))
        import plot_profile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "p.json")
            subprocess.run([SIM, "profile", "-q", "models/attention.pto", "-o", path], cwd=SOURCE, check=True)
            with open(path) as f:
                p = json.load(f)
        ops = {o["name"]: o for o in p["ops"]}
        self.assertEqual(ops["reshape_1"]["inputs"], ["matmul_1"])
        dot = plot_profile.task_dot(p)
        self.assertEqual(dot.count("subgraph cluster_"), len(p["tasks"]))
        self.assertIn('"op:matmul_1" -> "op:reshape_1";', dot)
        self.assertEqual(dot.count(" -> "), sum(len(o["inputs"]) for o in p["ops"]))


if __name__ == "__main__":
    SOURCE, SIM = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
