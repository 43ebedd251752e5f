# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-04c.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-04c.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-04c.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 28.4751
64 26.0997
EOD
$t0_1 << EOD
64 26.3145
EOD
$t0_2 << EOD
4 19.4147
64 26.0238
EOD
$t0_3 << EOD
64 26.2186
EOD
$t0_4 << EOD
4 27.0656
EOD
$t0_5 << EOD
4 23.9069
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
4 3.99909
64 4.48139
EOD
$t1_1 << EOD
64 3.90335
EOD
$t1_2 << EOD
4 6.11861
64 6.80187
EOD
$t1_3 << EOD
64 6.37581
EOD
$t1_4 << EOD
4 2.15217
EOD
$t1_5 << EOD
4 4.01746
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
4 3.45122
64 3.64907
EOD
$t2_1 << EOD
64 4.0628
EOD
$t2_2 << EOD
4 4.3916
64 5.53819
EOD
$t2_3 << EOD
64 8.21566
EOD
$t2_4 << EOD
4 3.40282
EOD
$t2_5 << EOD
4 5.25243
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
4 24.1869
64 12.1409
EOD
$t3_1 << EOD
64 11.7301
EOD
$t3_2 << EOD
4 44.79
64 39.0404
EOD
$t3_3 << EOD
64 41.3475
EOD
$t3_4 << EOD
4 19.8113
EOD
$t3_5 << EOD
4 32.5401
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
"cpu/sum: tilejit width-1, 1 thread" 1.00823
"cpu/sum: tilejit width-1, 2 threads" 1.00749
"cpu/sum: tilejit cooperative, 1 thread" 0.950503
"cpu/sum: tilejit cooperative, 2 threads" 1.23138
"cpu/histogram: tilejit width-1, 1 thread" 0.871012
"cpu/histogram: tilejit width-1, 2 threads" 0.937361
"cpu/histogram: tilejit cooperative, 1 thread" 0.538164
"cpu/histogram: tilejit cooperative, 2 threads" 0.656597
"cpu/compact: tilejit width-1, 1 thread" 1.11338
"cpu/compact: tilejit width-1, 2 threads" 1.48346
"cpu/compact: tilejit cooperative, 1 thread" 0.985975
"cpu/compact: tilejit cooperative, 2 threads" 1.19602
"cpu/copy: tilejit width-1, 1 thread" 0.966158
"cpu/copy: tilejit width-1, 2 threads" 1.05909
"cpu/copy: tilejit cooperative, 1 thread" 0.819094
"cpu/copy: tilejit cooperative, 2 threads" 0.726503
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
"ptx/store_doubled_thread_indices" 14.2718
"ptx/multiply_elements" 11.8762
"ptx/row_products" 7.87562
"ptx/replace_rows" 9.84097
"ptx/histogram" 11.0746
"ptx/compact_values" 6.60036
"ptx/large" 1.67506
"ptx-first/store_doubled_thread_indices" 10.8132
"ptx-first/multiply_elements" 4.91394
"ptx-first/row_products" 6.35822
"ptx-first/replace_rows" 7.11864
"ptx-first/histogram" 6.35765
"ptx-first/compact_values" 5.31741
"ptx-first/large" 1.60081
"disk/store_doubled_thread_indices" 2.27019
"disk/store_doubled_thread_indices (CPU)" 8.63016
"disk/multiply_elements" 4.04094
"disk/multiply_elements (CPU)" 6.7209
"disk/row_products" 3.0145
"disk/row_products (CPU)" 7.14169
"disk/replace_rows" 2.99442
"disk/replace_rows (CPU)" 9.6946
"disk/histogram" 3.86375
"disk/histogram (CPU)" 8.78865
"disk/compact_values" 3.05837
"disk/compact_values (CPU)" 9.74939
"disk/large" 7.31015
"disk/large (CPU)" 35.7409
"source/store_doubled_thread_indices" 13.4431
"source-first/store_doubled_thread_indices" 10.629
"source/multiply_elements" 11.3918
"source-first/multiply_elements" 7.54355
"source/row_products" 7.80188
"source-first/row_products" 6.25148
"source/replace_rows" 9.14861
"source-first/replace_rows" 7.77093
"source/histogram" 9.88091
"source-first/histogram" 9.67037
"source/compact_values" 6.28812
"source-first/compact_values" 5.18566
"source/large" 1.58988
"source-first/large" 1.79481
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
