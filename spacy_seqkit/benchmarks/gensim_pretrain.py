"""gensim's word2vec as a user runs it on a text file: the baseline process of `benchmark
pretrain-vectors`.

`python gensim_pretrain.py TEXT OUTPUT.txt --threads 2 ...` reads TEXT (UTF-8, one
sentence a line), tokenises each line with a blank spaCy tokenizer as `pretrain-vectors`
does (every token but whitespace, lines without tokens dropped), trains gensim's
`Word2Vec` with word2vec's settings and writes the vectors in word2vec's text format. It
imports nothing of spacy_seqkit: the benchmark runs it as its own process, timed from
start to exit, and it prints the seconds of its steps as JSON on its last line.
"""

import argparse
import json
import time

START = time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("text")
    parser.add_argument("output")
    parser.add_argument("--lang", default="fr")
    parser.add_argument("--model", choices=("skipgram", "cbow"), default="skipgram")
    parser.add_argument("--loss", choices=("ns", "hs"), default="ns")
    parser.add_argument("--dim", type=int, default=100)
    parser.add_argument("--window", type=int, default=5)
    parser.add_argument("--negative", type=int, default=5)
    parser.add_argument("--min-count", type=int, default=5)
    parser.add_argument("--sample", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import spacy
    from gensim.models import Word2Vec

    imported = time.perf_counter()
    nlp = spacy.blank(args.lang)
    with open(args.text, encoding="utf-8-sig") as f:
        lines = [line.strip() for line in f]
    sentences = []
    for doc in map(nlp.tokenizer, (line for line in lines if line)):
        tokens = [t.text for t in doc if not t.is_space]
        if tokens:
            sentences.append(tokens)
    read = time.perf_counter()
    lr = args.lr if args.lr is not None else (0.025 if args.model == "skipgram" else 0.05)
    model = Word2Vec(
        sentences,
        vector_size=args.dim,
        window=args.window,
        min_count=args.min_count,
        sample=args.sample,
        sg=int(args.model == "skipgram"),
        hs=int(args.loss == "hs"),
        negative=args.negative if args.loss == "ns" else 0,
        cbow_mean=1,
        alpha=lr,
        min_alpha=1e-4,
        workers=args.threads,
        seed=args.seed,
        epochs=args.epochs,
    )
    trained = time.perf_counter()
    model.wv.save_word2vec_format(args.output)
    written = time.perf_counter()
    steps = {
        "import s": imported - START,
        "read s": read - imported,
        "train s": trained - read,
        "write s": written - trained,
        "words": sum(len(s) for s in sentences),
        "vocab": len(model.wv),
    }
    print(json.dumps(steps))


if __name__ == "__main__":
    main()
