"""The preamble of every LaTeX report (:mod:`verify.report.latex`): packages of texlive-latex-base and
-recommended only, section headings set close to their text so that the errata fit the first two pages."""

PREAMBLE = [r"\documentclass[10pt]{article}",
            # T1 would need cm-super or lmodern (not in texlive-latex-base) for scalable fonts: OT1's Type 1 CM
            r"\usepackage{amsmath,amssymb,graphicx,array,longtable}",
            r"\usepackage[hidelinks]{hyperref}",
            r"\newcolumntype{P}[1]{>{\raggedright\arraybackslash}p{#1}}",
            r"\setlength{\parindent}{0pt}\setlength{\parskip}{3pt plus 1pt}",
            r"\usepackage[a4paper,margin=1.2cm]{geometry}",
            r"\setlength{\LTpre}{4pt}\setlength{\LTpost}{4pt}",
            r"\emergencystretch=3em",
            # section headings closer to their text than article's default: the errata fit the first two pages
            r"\makeatletter\renewcommand\section{\@startsection{section}{1}{0pt}{-2ex plus -.5ex minus -.2ex}"
            r"{.8ex plus .2ex}{\large\bfseries}}\renewcommand\subsection{\@startsection{subsection}{2}{0pt}"
            r"{-1.5ex plus -.5ex minus -.2ex}{.5ex plus .2ex}{\normalsize\bfseries}}\makeatother"]
