# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-04e.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-04e.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-04e.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.5985
64 27.8569
EOD
$t0_1 << EOD
64 26.9546
EOD
$t0_2 << EOD
4 39.2202
64 49.9467
EOD
$t0_3 << EOD
64 48.2499
EOD
$t0_4 << EOD
4 28.2938
EOD
$t0_5 << EOD
4 51.7183
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 6.26442
64 5.11948
EOD
$t1_1 << EOD
64 4.30935
EOD
$t1_2 << EOD
4 7.47584
64 7.85924
EOD
$t1_3 << EOD
64 7.26536
EOD
$t1_4 << EOD
4 3.89237
EOD
$t1_5 << EOD
4 6.00103
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 5.87972
64 3.80288
EOD
$t2_1 << EOD
64 4.70128
EOD
$t2_2 << EOD
4 7.84504
64 6.78888
EOD
$t2_3 << EOD
64 12.1176
EOD
$t2_4 << EOD
4 4.64166
EOD
$t2_5 << EOD
4 9.09606
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 28.3374
64 25.6148
EOD
$t3_1 << EOD
64 25.3162
EOD
$t3_2 << EOD
4 36.2156
64 49.3343
EOD
$t3_3 << EOD
64 48.7709
EOD
$t3_4 << EOD
4 24.8809
EOD
$t3_5 << EOD
4 40.9329
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.96761
"cpu/sum: tilejit width-1, 2 threads" 0.966026
"cpu/sum: tilejit cooperative, 1 thread" 0.95592
"cpu/sum: tilejit cooperative, 2 threads" 1.31867
"cpu/histogram: tilejit width-1, 1 thread" 0.841756
"cpu/histogram: tilejit width-1, 2 threads" 0.924436
"cpu/histogram: tilejit cooperative, 1 thread" 0.621345
"cpu/histogram: tilejit cooperative, 2 threads" 0.802724
"cpu/compact: tilejit width-1, 1 thread" 1.23624
"cpu/compact: tilejit width-1, 2 threads" 1.78492
"cpu/compact: tilejit cooperative, 1 thread" 0.789435
"cpu/compact: tilejit cooperative, 2 threads" 1.15947
"cpu/copy: tilejit width-1, 1 thread" 0.988344
"cpu/copy: tilejit width-1, 2 threads" 0.98858
"cpu/copy: tilejit cooperative, 1 thread" 0.878022
"cpu/copy: tilejit cooperative, 2 threads" 1.13026
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 13.9138
"ptx/multiply_elements" 10.3817
"ptx/row_products" 8.21018
"ptx/replace_rows" 10.0115
"ptx/histogram" 11.1105
"ptx/compact_values" 6.57762
"ptx/large" 1.65612
"ptx-first/store_doubled_thread_indices" 8.21979
"ptx-first/multiply_elements" 7.9978
"ptx-first/row_products" 6.0472
"ptx-first/replace_rows" 6.81312
"ptx-first/histogram" 6.75905
"ptx-first/compact_values" 4.42988
"ptx-first/large" 1.34353
"disk/store_doubled_thread_indices" 2.27127
"disk/store_doubled_thread_indices (CPU)" 8.01708
"disk/multiply_elements" 2.55812
"disk/multiply_elements (CPU)" 6.33924
"disk/row_products" 2.87502
"disk/row_products (CPU)" 7.08086
"disk/replace_rows" 2.63437
"disk/replace_rows (CPU)" 9.52612
"disk/histogram" 2.74741
"disk/histogram (CPU)" 7.89063
"disk/compact_values" 3.97856
"disk/compact_values (CPU)" 7.19385
"disk/large" 7.90551
"disk/large (CPU)" 34.1041
"source/store_doubled_thread_indices" 13.3202
"source-first/store_doubled_thread_indices" 6.76021
"source/multiply_elements" 11.6655
"source-first/multiply_elements" 5.4726
"source/row_products" 7.71697
"source-first/row_products" 4.52262
"source/replace_rows" 6.86639
"source-first/replace_rows" 5.8044
"source/histogram" 9.17714
"source-first/histogram" 7.11247
"source/compact_values" 6.13829
"source-first/compact_values" 3.69498
"source/large" 1.16995
"source-first/large" 1.56866
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
