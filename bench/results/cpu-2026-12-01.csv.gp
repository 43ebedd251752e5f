# Charts of the tilejit-bench run in bench/results/cpu-2026-12-01.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-2026-12-01.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-2026-12-01.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.5269
64 21.3504
EOD
$t0_1 << EOD
64 12.8614
EOD
$t0_2 << EOD
4 22.9998
64 25.5086
EOD
$t0_3 << EOD
64 12.4122
EOD
$t0_4 << EOD
4 0.120661
EOD
$t0_5 << EOD
4 0.26444
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
4 5.36125
64 4.51294
EOD
$t1_1 << EOD
64 1.93587
EOD
$t1_2 << EOD
4 6.39345
64 4.30008
EOD
$t1_3 << EOD
64 3.11237
EOD
$t1_4 << EOD
4 0.159285
EOD
$t1_5 << EOD
4 0.375378
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
4 5.84178
64 3.68579
EOD
$t2_1 << EOD
64 1.14581
EOD
$t2_2 << EOD
4 1.05676
64 3.29038
EOD
$t2_3 << EOD
64 2.36522
EOD
$t2_4 << EOD
4 0.0276383
EOD
$t2_5 << EOD
4 0.0571873
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
4 25.5235
64 11.3691
EOD
$t3_1 << EOD
64 6.5803
EOD
$t3_2 << EOD
4 22.6588
64 16.1747
EOD
$t3_3 << EOD
64 11.8163
EOD
$t3_4 << EOD
4 0.538589
EOD
$t3_5 << EOD
4 1.25156
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
"cpu/sum: tilejit width-1, 1 thread" 0.602393
"cpu/sum: tilejit width-1, 2 threads" 0.486589
"cpu/sum: tilejit cooperative, 1 thread" 0.00408647
"cpu/sum: tilejit cooperative, 2 threads" 0.0114975
"cpu/histogram: tilejit width-1, 1 thread" 0.42896
"cpu/histogram: tilejit width-1, 2 threads" 0.723792
"cpu/histogram: tilejit cooperative, 1 thread" 0.0297104
"cpu/histogram: tilejit cooperative, 2 threads" 0.0587129
"cpu/compact: tilejit width-1, 1 thread" 0.310872
"cpu/compact: tilejit width-1, 2 threads" 0.718827
"cpu/compact: tilejit cooperative, 1 thread" 0.00473113
"cpu/compact: tilejit cooperative, 2 threads" 0.0541157
"cpu/copy: tilejit width-1, 1 thread" 0.578791
"cpu/copy: tilejit width-1, 2 threads" 0.730546
"cpu/copy: tilejit cooperative, 1 thread" 0.0211017
"cpu/copy: tilejit cooperative, 2 threads" 0.0552351
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
"ptx/store_doubled_thread_indices" 10.4977
"ptx/multiply_elements" 6.78423
"ptx/row_products" 5.13758
"ptx/replace_rows" 5.98867
"ptx/histogram" 8.53385
"ptx/compact_values" 4.85132
"ptx/large" 1.15417
"ptx-first/store_doubled_thread_indices" 5.86506
"ptx-first/multiply_elements" 5.7554
"ptx-first/row_products" 5.06861
"ptx-first/replace_rows" 5.71857
"ptx-first/histogram" 6.00443
"ptx-first/compact_values" 4.69712
"ptx-first/large" 0.983089
"disk/store_doubled_thread_indices" 2.32294
"disk/store_doubled_thread_indices (CPU)" 6.46169
"disk/multiply_elements" 2.9128
"disk/multiply_elements (CPU)" 5.38237
"disk/row_products" 3.04231
"disk/row_products (CPU)" 6.51422
"disk/replace_rows" 2.78088
"disk/replace_rows (CPU)" 9.39703
"disk/histogram" 2.54649
"disk/histogram (CPU)" 7.15504
"disk/compact_values" 2.90647
"disk/compact_values (CPU)" 10.3114
"disk/large" 7.46664
"disk/large (CPU)" 25.0879
"source/store_doubled_thread_indices" 8.98432
"source-first/store_doubled_thread_indices" 6.02352
"source/multiply_elements" 7.02841
"source-first/multiply_elements" 5.95087
"source/row_products" 7.02581
"source-first/row_products" 5.53079
"source/replace_rows" 8.44969
"source-first/replace_rows" 4.85712
"source/histogram" 7.68876
"source-first/histogram" 5.40067
"source/compact_values" 3.34129
"source-first/compact_values" 3.28334
"source/large" 0.929633
"source-first/large" 1.26251
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
